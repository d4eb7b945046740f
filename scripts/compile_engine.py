"""Compile the Base on Board engine with mypyc, in place; opt-in, never needed.

Run: ``make compiled`` (or ``.venv/bin/python scripts/compile_engine.py``); undo with
``make uncompiled`` (``scripts/compile_engine.py --clean``). The project stays pure Python:
``make install``, ``make test`` and CI never compile anything. Compiling needs mypyc (in the
venv with mypy), a C compiler and the Python headers.

The compiled modules are ``engine``, ``windows``, ``bases`` and ``data`` of
``app/engines/base_on_board/``; ``state`` and ``policy`` stay interpreted (the engine's hot loop is
in ``engine`` and ``windows``; ``state``'s dataclasses are built and read from both sides). The
extensions land next to their sources (``engine.cpython-*.so`` and a shared ``*__mypyc*.so`` at the
project's root), where Python imports them before the ``.py`` files; ``--clean`` removes them and
the ``build/`` directory, and the sources run unchanged again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path("app/engines/base_on_board")
MODULES = [PACKAGE / name for name in ("engine.py", "windows.py", "bases.py", "data.py")]


def artefacts() -> list[Path]:
    """Every file or directory a compile leaves in the tree."""
    found = [p for p in (ROOT / PACKAGE).glob("*.so")]
    found += [p for p in ROOT.glob("*__mypyc*.so")]
    found += [p for p in (ROOT / PACKAGE).glob("*.pyd")]
    if (ROOT / "build").is_dir():
        found.append(ROOT / "build")
    return found


def clean() -> None:
    for path in artefacts():
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
        print(f"removed {path.relative_to(ROOT)}")


def compile_engine() -> None:
    clean()
    mypyc = Path(sys.executable).with_name("mypyc")
    command = [str(mypyc) if mypyc.exists() else "mypyc", *map(str, MODULES)]
    env = {**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")}
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    for path in artefacts():
        print(f"built {path.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    if args.clean:
        clean()
    else:
        compile_engine()


if __name__ == "__main__":
    main()
