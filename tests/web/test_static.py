"""The client's files: modules import each other without cycles (shared names have their own
modules), no test hook lives in production code, the service worker keeps the whole shell and
nothing else, and the self-hosted Korean font has every character the site writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
IMPORT = re.compile(r"^import [^;]*? from \"(\.[^\"]+)\"", re.MULTILINE)


def imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted((STATIC / "js").rglob("*.js")):
        found = set()
        for target in IMPORT.findall(path.read_text("utf-8")):
            resolved = (path.parent / target).resolve()
            if resolved.suffix == ".js":
                found.add(str(resolved.relative_to(STATIC)))
        graph[str(path.relative_to(STATIC))] = found
    return graph


def test_modules_import_each_other_without_cycles() -> None:
    graph = imports()
    assert "js/nav.js" in graph["js/pages/lobby.js"]  # the scan sees imports
    assert all("js/main.js" not in deps for deps in graph.values()), "a module imports main.js"
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for dep in sorted(graph.get(node, ())):
            assert state.get(dep) != "open", f"import cycle: {' -> '.join([*path, node, dep])}"
            if dep not in state:
                visit(dep, [*path, node])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [])


def test_no_test_hooks_in_production_code() -> None:
    for path in sorted((STATIC / "js").rglob("*.js")):
        text = path.read_text("utf-8")
        assert "window.__" not in text, f"{path.name} exposes a test hook"
        assert "for the browser tests" not in text.lower(), path.name


def test_the_service_worker_keeps_the_whole_shell_and_no_api() -> None:
    source = (STATIC / "sw.js").read_text("utf-8")
    listed = set(re.findall(r"\"(/[^\"]*)\"", source.split("self.addEventListener")[0]))
    files = {f"/static/{p.relative_to(STATIC)}" for p in STATIC.rglob("*")
             if p.is_file() and p.suffix in (".js", ".json", ".woff2")}
    files.discard("/static/sw.js")
    assert sorted(files - listed) == [], "files of the shell the service worker does not keep"
    assert not any(entry.startswith(("/api", "/ws")) for entry in listed)
    assert 'url.pathname.startsWith("/api/")' in source and 'startsWith("/ws/")' in source


def site_text() -> str:
    parts = [p.read_text("utf-8") for p in (STATIC / "i18n").glob("*.json")]
    parts += [p.read_text("utf-8") for p in (ROOT / "app" / "catalogue").glob("*.json")]
    parts += [p.read_text("utf-8") for p in
              (ROOT / "app" / "engines" / "bottom_of_the_ninth").glob("*.json")]
    parts += [p.read_text("utf-8") for p in (ROOT / "docs" / "rules").glob("*.guide.md")]
    parts.append((ROOT / "app" / "engines" / "bottom_of_the_ninth" / "codes.py").read_text())
    parts.append((ROOT / "app" / "stats" / "playbyplay.py").read_text("utf-8"))
    return "".join(parts)


def test_the_korean_font_has_every_hangul_character_the_site_writes() -> None:
    hangul = {c for c in site_text() if 0xAC00 <= ord(c) <= 0xD7A3 or 0x3131 <= ord(c) <= 0x318E}
    assert len(hangul) > 400  # the scan reads the words (it would pass vacuously otherwise)
    fonts = sorted((STATIC / "fonts").glob("*.woff2"))
    assert [f.name for f in fonts] == ["noto-sans-kr-bold.woff2", "noto-sans-kr-regular.woff2"]
    assert sum(f.stat().st_size for f in fonts) < 1_500_000
    assert (STATIC / "fonts" / "OFL.txt").read_text("utf-8").count("SIL OPEN FONT LICENSE") == 1
    for font in fonts:
        cmap = TTFont(str(font)).getBestCmap()
        missing = sorted(c for c in hangul if ord(c) not in cmap)
        assert missing == [], f"{font.name} lacks {''.join(missing)}: run scripts/build_font.py"
        assert all(ord(c) in cmap for c in "가각간힝")  # KS X 1001, not only the site's own


def test_the_manifest_names_the_app_and_its_icons() -> None:
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text("utf-8"))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert (ROOT / icon["src"].lstrip("/")).is_file(), icon["src"]
