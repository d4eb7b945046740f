"""``make bench``: every engine benchmark in turn, one JSON line each (pinned to one core)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = ["base_on_board.py", "bottom_of_the_ninth.py"]


def main() -> int:
    status = 0
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    for name in BENCHMARKS:
        command = [sys.executable, str(HERE / name)]
        if sys.platform.startswith("linux"):
            command = ["taskset", "-c", "0", *command]
        status |= subprocess.run(command, env=env, check=False).returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
