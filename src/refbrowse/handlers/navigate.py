"""Navigate: goto, back, forward, reload, url."""

from __future__ import annotations

import re
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response

from refbrowse.errors import PageError, UsageError
from refbrowse.handlers import Call, handler
from refbrowse.pwerrors import interrupted_by_navigation, translate

_LOAD_ATTEMPTS = 3
LOADABLE_SCHEMES = ("http", "https", "file", "about", "data")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_LOCAL_HOST = re.compile(r"^(localhost|127(\.\d+){3}|0\.0\.0\.0|\[::1\])(:\d+)?([/?#]|$)")


def normalize_url(raw: str) -> str:
    """A loadable URL: known schemes pass, a bare host gets https (http when local)."""
    url = raw.strip()
    if not url:
        raise UsageError("goto needs a URL", "for example: browse goto http://localhost:3000/")
    match = _SCHEME.match(url)
    if match and not url[match.end() :][:1].isdigit():  # "localhost:3000" is a host, not a scheme
        scheme = match.group(1).lower()
        if scheme not in LOADABLE_SCHEMES:
            raise UsageError(
                f"cannot load {scheme}: URLs",
                f"goto takes {', '.join(LOADABLE_SCHEMES)} URLs",
            )
        return url
    return ("http://" if _LOCAL_HOST.match(url) else "https://") + url


async def load(page: Page, url: str, timeout_ms: int) -> Response | None:
    """Navigate `page` to `url`; a failure names the URL and what to check.

    A load interrupted by another navigation waits for that one: if the tab
    ends up on a real page, that is where it went; if it ends up on Chromium's
    error page for an earlier failed load, the load is tried again.
    """
    for attempt in range(_LOAD_ATTEMPTS):
        try:
            return await page.goto(url, timeout=timeout_ms)
        except PlaywrightError as exc:
            if attempt == _LOAD_ATTEMPTS - 1 or not interrupted_by_navigation(exc):
                raise translate(exc, f"loading {url}") from exc
        with suppress(PlaywrightError):
            await page.wait_for_load_state("load", timeout=timeout_ms)
        if not page.url.startswith("chrome-error://"):
            return None
    return None


@handler("goto")
async def goto(call: Call) -> str:
    url = normalize_url(call.args[0])
    response = await load(call.page, url, call.nav_timeout_ms)
    status = f" ({response.status})" if response else ""
    return f"Navigated to {call.page.url}{status}"


@handler("back")
async def back(call: Call) -> str:
    before = call.page.url
    response = await call.page.go_back(timeout=call.nav_timeout_ms)
    if response is None and call.page.url == before:
        raise PageError("there is no previous page in this tab's history", "use `browse goto URL`")
    return f"Back → {call.page.url}"


@handler("forward")
async def forward(call: Call) -> str:
    before = call.page.url
    response = await call.page.go_forward(timeout=call.nav_timeout_ms)
    if response is None and call.page.url == before:
        raise PageError("there is no next page in this tab's history", "use `browse goto URL`")
    return f"Forward → {call.page.url}"


@handler("reload")
async def reload(call: Call) -> str:
    response = await call.page.reload(timeout=call.nav_timeout_ms)
    status = f" ({response.status})" if response else ""
    return f"Reloaded {call.page.url}{status}"


@handler("url")
async def url(call: Call) -> str:
    return call.page.url
