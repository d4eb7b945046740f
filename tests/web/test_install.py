"""The site installs like an app: Chromium finds the manifest and the service worker and reports
no installability error; the worker keeps the shell and fonts (never an API answer), so the
pages still open with the network gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import ARGS, CHROMIUM, PHONE, WebServer

SHELL_KEYS = """caches.keys().then(async (names) => {
  const keys = [];
  for (const name of names) {
    for (const request of await (await caches.open(name)).keys()) {
      keys.push(new URL(request.url).pathname);
    }
  }
  return keys;
})"""


def test_the_site_is_installable_and_opens_offline(
    browser: Any, web: WebServer, tmp_path: Path
) -> None:
    errors: list[str] = []
    # The session's Playwright drives it (a second Playwright may not run in this thread).
    # A persistent profile: Chromium never offers to install from an incognito one.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, base_url=web.url,
        viewport=PHONE, locale="ko-KR")
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/rules/base-on-board")
        page.wait_for_selector("#rules[aria-busy='false']")
        state = page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        assert state in ("activating", "activated")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest: Any = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == []
        page.reload()  # now under the worker's control: the page asks for the API again
        page.wait_for_selector("#rules[aria-busy='false']")
        keys = page.evaluate(SHELL_KEYS)
        assert {"/", "/static/js/main.js", "/static/i18n/ko.json",
                "/static/fonts/noto-sans-kr-regular.woff2"} <= set(keys)
        assert not [k for k in keys if k.startswith(("/api/", "/ws/"))], keys
        # With the network gone the shell still starts (its words, its font); the pages
        # say the server cannot be reached instead of showing a browser error page.
        context.set_offline(True)
        page.goto("/")
        page.wait_for_selector("h1:has-text('로비')")
        page.wait_for_selector("#rooms .form-error")
        assert "서버에 연결할 수 없습니다" in page.inner_text("#rooms")
    finally:
        context.close()
    assert errors == []
