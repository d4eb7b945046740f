"""Experiment only: per-command phase times, dumped at exit when PHASES=path is set."""
import atexit, json, os, time
PATH = os.environ.get("PHASES")
marks: dict[int, list] = {}
done: list[list] = []
lags: list = []
gcs: list = []
_started = False
async def _lag() -> None:
    import asyncio
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append((t, time.perf_counter() - t - 0.005))
        if not _dumped and t - lags[0][0] > float(os.environ.get("PHASES_AT", "112")):
            _dump()
def mark(key: int, name: str) -> None:
    global _started
    if PATH and not _started:
        import asyncio, gc
        _started = True
        th = os.environ.get("PHASES_GC")
        if th:
            gc.set_threshold(*map(int, th.split(",")))
        _gc_at = [0.0]
        def cb(phase, info):
            if phase == "start":
                _gc_at[0] = time.perf_counter()
            else:
                gcs.append((_gc_at[0], info["generation"], time.perf_counter() - _gc_at[0], info["collected"]))
        gc.callbacks.append(cb)
        asyncio.get_running_loop().create_task(_lag())
    if PATH:
        marks.setdefault(key, []).append((name, time.perf_counter()))
def finish(key: int) -> None:
    if PATH:
        m = marks.pop(key, None)
        if m:
            done.append([(n, round(t - m[0][1], 6), t) for n, t in m])
_dumped = False
def _dump() -> None:
    global _dumped
    _dumped = True
    if PATH:
        with open(PATH, "w") as f:
            json.dump({"commands": done, "lags": lags, "gcs": gcs, "threshold": __import__("gc").get_threshold()}, f)
atexit.register(_dump)
