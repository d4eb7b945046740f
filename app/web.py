"""The browser client: its pages and assets from ``static/``, and its words (the catalogues
and the rules guides). The data it draws comes from the domains' own APIs (``rooms``,
``games``, ``stats``).

Every page is the same HTML shell (``static/index.html``); the ES modules under
``static/js/`` read the address and draw the page. Nothing here is built: the files are served
as they are in the repository.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse, Response

from app.catalogue import CatalogueKeyError, for_client
from app.errors import ApiError

STATIC = Path(__file__).resolve().parent.parent / "static"
GAMES = ("base-on-board", "bottom-of-the-9th")

router = APIRouter(tags=["web"])

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".html": "text/html; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}


def _shell() -> HTMLResponse:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
@router.get("/lobby", include_in_schema=False)
@router.get("/signin", include_in_schema=False)
@router.get("/leaderboard", include_in_schema=False)
@router.get("/leagues", include_in_schema=False)
@router.get("/rules", include_in_schema=False)
@router.get("/tutorial", include_in_schema=False)
async def page() -> HTMLResponse:
    return _shell()


@router.get("/leagues/{league_id}", include_in_schema=False)
async def league_shell(league_id: str) -> HTMLResponse:
    """A league's page (static/js/pages/league.js on /api/leagues/{id})."""
    return _shell()


@router.get("/rules/{game}", include_in_schema=False)
async def rules_shell(game: str) -> HTMLResponse:
    return _shell()


@router.get("/tutorial/{game}", include_in_schema=False)
async def tutorial_shell(game: str) -> HTMLResponse:
    """The interactive tutorial (static/js/pages/tutorial.js on static/tutorials/<game>.json)."""
    return _shell()


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    """The web app manifest (the site installs like an app), at the root so its scope is "/"."""
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json",
                        headers={"Cache-Control": "no-cache"})


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, served from the root so it may control every page."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/rooms/{room_id}", include_in_schema=False)
async def room_page(room_id: str) -> HTMLResponse:
    return _shell()


@router.get("/players/{name}", include_in_schema=False)
async def player_page(name: str) -> HTMLResponse:
    return _shell()


@router.get("/clubs", include_in_schema=False)
async def clubs_page() -> HTMLResponse:
    return _shell()


@router.get("/clubs/{code}", include_in_schema=False)
async def club_page(code: str) -> HTMLResponse:
    return _shell()


@router.get("/games/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> HTMLResponse:
    return _shell()


@router.get("/static/{path:path}", include_in_schema=False)
async def asset(path: str) -> Response:
    """A file under ``static/``; nothing outside it, no directory listings."""
    target = (STATIC / path).resolve()
    if not target.is_relative_to(STATIC) or not target.is_file():
        return Response("not found", status_code=404, media_type="text/plain")
    media = _TYPES.get(target.suffix, "application/octet-stream")
    return FileResponse(target, media_type=media, headers={"Cache-Control": "no-cache"})


# --- words -------------------------------------------------------------------------------------


@router.get("/api/catalogue/{game}")
async def get_catalogue(game: str) -> Response:
    try:
        words = for_client(game)
    except CatalogueKeyError as missing:
        raise ApiError("not_found", str(missing), 404) from None
    body = json.dumps(words, ensure_ascii=False, separators=(",", ":"))
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "public, max-age=300"})


@router.get("/api/rules/{game}")
async def get_rules(game: str, lang: str = Query("en", pattern="^(en|ko)$")) -> Response:
    """The rules page of a game in one language: ``title`` and ``html`` (app/guide.py)."""
    from app.guide import rules_page

    body = json.dumps(rules_page(game, lang), ensure_ascii=False, separators=(",", ":"))
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "public, max-age=300"})


# --- records and player charts -------------------------------------------------------------------
