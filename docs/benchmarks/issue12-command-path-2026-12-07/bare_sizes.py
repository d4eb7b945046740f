import json, sys, argparse
sys.path.insert(0, "/work/main")
from bench.compare import run_bare
for rnd in (1, 2):
    for payload in (64, 1150):
        args = argparse.Namespace(spectators=3, think_ms="500:1500", ramp=60.0, bare_commands=150,
                                  bot_processes=1, bare_payload=payload)
        r = run_bare(args, 200)
        print(json.dumps({"round": rnd, "payload": payload, "steady_cpu": r["steady_server_cpu_ms_per_command"],
                          "cpu": r["server_cpu_ms_per_command"], "frames": r["frames_per_command"],
                          "failures": len(r["failures"]), "p99": (r.get("latency_ms") or {}).get("p99")}), flush=True)
