"""Compile the Base on Board engine with mypyc, in place; opt-in, never needed.

Run: ``make compiled`` (or ``.venv/bin/python scripts/compile_engine.py``); undo with
``make uncompiled`` (``scripts/compile_engine.py --clean``). The project stays pure Python:
``make install``, ``make test`` and CI never compile anything. Compiling needs mypyc (in the
venv with mypy), a C compiler and the Python headers.

The compiled modules are ``engine``, ``fast``, ``windows``, ``bases`` and ``data`` of
``app/engines/base_on_board/`` (the set of the trial in docs/benchmarks.md); ``state`` and
``policy`` stay interpreted. The extensions land next to their sources (``engine.cpython-*.so``
and so on, plus their shared ``compiled__mypyc.cpython-*.so``), where Python imports them before
the ``.py`` files; ``--clean`` removes them and ``build/``, and the sources run again.
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
MODULES = [
    PACKAGE / name for name in ("engine.py", "fast.py", "windows.py", "bases.py", "data.py")
]
GROUP = "app.engines.base_on_board.compiled"


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


_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="bob_compiled_engine",
    ext_modules=mypycify({paths!r}, opt_level="3", group_name={group!r}),
)
"""


def compile_engine() -> None:
    clean()
    build = ROOT / "build"
    build.mkdir()
    # One group named inside the package, so its shared library is
    # app/engines/base_on_board/compiled__mypyc*.so (importable wherever ``app`` is) rather than
    # a <hash>__mypyc*.so at the root that only a root on sys.path would find.
    setup = build / "setup.py"
    setup.write_text(_SETUP.format(paths=[str(m) for m in MODULES], group=GROUP))
    subprocess.run(
        [sys.executable, str(setup), "build_ext", "--inplace"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True,
    )
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
