"""A live server with a fresh SQLite database, one Chromium, and pages that fail the test on
any browser console error and leave phone and desktop screenshots in test-artifacts/ when a
test fails (or always, with ``WEB_SCREENSHOTS=1``).

Chromium is Debian's (``apt-get install chromium``), never a playwright download. Without it
the tests skip, except under ``CI=true`` where they must run.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from app.engine_catalog import default_catalog
from app.main import create_app
from app.settings import Settings
from tests.support.databases import sqlite_database
from tests.support.live import GENEROUS_LIMITS

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def _need_browser() -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing in CI (apt-get install -y chromium)")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("the playwright package is missing in CI")
        pytest.skip("the playwright package is not installed")


class WebServer:
    """uvicorn on a free 127.0.0.1 port, in a thread, allowing its own origin on the socket."""

    def __init__(self, database_url: str) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.sock = sock
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        settings = Settings(
            database_url=database_url, public_url=self.url, ws_allowed_origins=[self.url],
            presence_heartbeat_seconds=0.5, timer_tick_seconds=0.05,
            ws_rate_per_second=500.0, ws_rate_burst=500,
            default_response_seconds=60, default_roll_seconds=60, analysis_refresh_seconds=0,
            ws_heartbeat_seconds=1,
            **GENEROUS_LIMITS,
        )
        app = create_app(settings, default_catalog())
        config = uvicorn.Config(app, log_level="warning", lifespan="on",
                                ws_max_size=settings.ws_hard_limit_bytes)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)

    def start(self) -> WebServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """The server alone, for tests of app/web.py's endpoints that need no browser."""
    with sqlite_database(tmp_path_factory.mktemp("web-db")) as url:
        server = WebServer(url).start()
        yield server
        server.stop()


@pytest.fixture(scope="session")
def web(web_server: WebServer) -> WebServer:
    _need_browser()
    return web_server


@pytest.fixture(scope="session")
def browser(web: WebServer) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


Opener = Callable[..., Any]


@pytest.fixture
def open_page(browser: Any, web: WebServer, request: pytest.FixtureRequest) -> Iterator[Opener]:
    """``open_page(name, locale="en-US", phone=False)``: a page in a fresh context (its own
    storage, so its own signed-in player). Console errors and page errors are collected and
    fail the test at the end, except those matching a pattern given to
    ``open_page.expect_error(regex)`` (a test that cuts the network expects the browser to
    report the failed reconnection attempts)."""
    pages: list[tuple[str, Any]] = []
    contexts: list[Any] = []
    errors: list[str] = []
    expected: list[str] = []

    def opener(name: str, locale: str = "en-US", phone: bool = False) -> Any:
        context = browser.new_context(
            base_url=web.url, locale=locale, viewport=PHONE if phone else DESKTOP,
            permissions=["clipboard-read", "clipboard-write"],
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("console", lambda m: errors.append(f"{name}: console.{m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(f"{name}: page error: {e} {e.stack}"))
        pages.append((name, page))
        return page

    opener.expect_error = expected.append  # type: ignore[attr-defined]
    yield opener
    errors = [e for e in errors if not any(re.search(p, e) for p in expected)]
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    if failed or errors or os.environ.get("WEB_SCREENSHOTS") == "1":
        folder = ARTIFACTS / re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
        folder.mkdir(parents=True, exist_ok=True)
        for name, page in pages:
            for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
                try:
                    page.set_viewport_size(size)
                    page.screenshot(path=str(folder / f"{name}-{label}.png"), full_page=True)
                except Exception:
                    pass
    for context in contexts:
        context.close()
    assert not errors, "browser console errors:\n" + "\n".join(errors)
