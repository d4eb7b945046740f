"""Draws the app icons (PNG, for the web app manifest and phones' home screens) from
``static/icons/icon.svg`` with Debian's Chromium, so the icons are ours and need no image
library. Run after changing the SVG:

    .venv/bin/python scripts/build_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "static" / "icons"
SIZES = (192, 512)


def main() -> None:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f'<body style="margin:0">{sized}</body>')
            page.screenshot(path=str(ICONS / f"icon-{size}.png"),
                            clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
        browser.close()
    for size in SIZES:
        print(ICONS / f"icon-{size}.png", (ICONS / f"icon-{size}.png").stat().st_size)


if __name__ == "__main__":
    main()
