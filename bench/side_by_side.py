"""Two trees of this server measured at the same time, under the same load (issue 12).

On a shared machine the CPU time one command costs moves by up to 1.6× between runs of the
same code minutes apart (docs/benchmarks.md, "a pass written with the command before it"), more
than most changes are worth. Runs taken *at the same time* share whatever the machine is doing,
so their ratio keeps still: this runs ``bench/server.py`` from tree A and from tree B at once
(each with its own database, server and bots, the arguments after ``--`` for both), ``--rounds``
times, and prints each run's JSON line (with ``round`` and ``tree``) to stderr, then per round
and as a median the ratio B / A of the server's CPU per applied command and per game, and p50.

    .venv/bin/python bench/side_by_side.py ../before . --rounds 4 -- --games 30 \\
        --spectators 3 --think-ms 0:0 --ramp 0 --database postgres \\
        --options '{"innings":3,"tier":"pro"}'

Each tree runs with ``PYTHONPATH`` set to itself, under this interpreter (one virtualenv, the
code of each tree). PostgreSQL CPU is not compared: both runs share the one server.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_both(trees: list[Path], bench_args: list[str]) -> list[dict[str, Any]]:
    """One round: ``bench/server.py`` of every tree at once; their JSON lines."""
    running = []
    for tree in trees:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        running.append(subprocess.Popen(
            [sys.executable, str(tree / "bench" / "server.py"), *bench_args],
            cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
    results = []
    for tree, process in zip(trees, running, strict=True):
        out, _ = process.communicate()
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if process.returncode != 0 or not lines:
            failures = json.loads(lines[-1]).get("failures") if lines else None
            raise SystemExit(f"bench/server.py of {tree} failed ({process.returncode}):"
                             f" {failures}")
        results.append(json.loads(lines[-1]))
    return results


def figures(run: dict[str, Any]) -> dict[str, float]:
    """The run's figures to compare; the steady part's CPU per applied command too when the run
    had one. The whole run's CPU includes the tables' arrival (accounts, rooms, sockets), which
    a run stopped by ``--duration`` is mostly made of."""
    found = {"cpu_ms_per_applied": float(run["server_cpu_ms_per_applied"]),
             "cpu_s_per_game": float(run["server_cpu_seconds"]) / max(1, int(run["finished"])),
             "p50_ms": float(run["latency_ms"]["p50"])}
    steady = run.get("steady_server_cpu_ms_per_applied")
    if steady is not None:
        found["steady_cpu_ms_per_applied"] = float(steady)
    return found


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Its own options, and ``bench/server.py``'s (those after ``--``). Split by hand:
    argparse's REMAINDER after the positionals would take ``--rounds`` along too."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="tree A (before)")
    parser.add_argument("b", type=Path, help="tree B (after)")
    parser.add_argument("--rounds", type=int, default=3)
    cut = argv.index("--") if "--" in argv else len(argv)
    return parser.parse_args(argv[:cut]), argv[cut + 1:]


def main() -> None:
    args, bench_args = parse(sys.argv[1:])
    trees = [args.a.resolve(), args.b.resolve()]
    ratios: dict[str, list[float]] = {}
    print("| round | figure | A | B | B / A |\n| --- | --- | --- | --- | --- |")
    for round_ in range(1, args.rounds + 1):
        runs = run_both(trees, bench_args)
        for tree, run in zip(trees, runs, strict=True):
            print(json.dumps({"round": round_, "tree": str(tree), "run": run}), file=sys.stderr)
        a, b = figures(runs[0]), figures(runs[1])
        for key in [k for k in a if k in b]:
            ratio = b[key] / a[key] if a[key] else float("nan")
            ratios.setdefault(key, []).append(ratio)
            print(f"| {round_} | {key} | {a[key]:.3f} | {b[key]:.3f} | {ratio:.2f} |",
                  flush=True)
    for key, values in ratios.items():
        print(f"| median | {key} | | | {statistics.median(values):.2f} |")


if __name__ == "__main__":
    main()
