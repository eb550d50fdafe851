"""Navigate: goto, back, forward, reload, url.

Each navigation runs through `effects.perform`, so it settles (an SPA that
renders after `load` has rendered) and reports what else happened.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response

from refbrowse.daemon.effects import perform
from refbrowse.daemon.handlers import Call, handler
from refbrowse.daemon.outcome import Outcome
from refbrowse.daemon.policy import ALLOW_FILE_FLAG
from refbrowse.daemon.pwerrors import interrupted_by_navigation, translate
from refbrowse.daemon.session import Tab
from refbrowse.errors import PageError

_LOAD_ATTEMPTS = 3


def checked_url(call: Call, url: str) -> str:
    """A URL (already normalised by its kind) that passes the daemon's URL policy (file://, allowed hosts)."""
    call.services.policy.check_url(url, bool(call.flags.get(ALLOW_FILE_FLAG)))
    return url


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


async def navigate(
    call: Call, doing: str, step: Callable[[], Awaitable[Response | None]], tab: Tab | None = None
) -> tuple[Outcome, Response | None]:
    """Run a navigation through `effects.perform`; its outcome and the main response."""
    responses: list[Response | None] = []

    async def go() -> None:
        responses.append(await step())

    outcome = await perform(call, doing, go, navigation=True, tab=tab)
    return outcome, responses[0] if responses else None


def _status(response: Response | None) -> str:
    return f" ({response.status})" if response else ""


@handler("goto")
async def goto(call: Call) -> str:
    url = checked_url(call, call.args[0])
    tab = call.tab
    guard = getattr(call.daemon, "tab_guard", None)
    if guard is not None:  # a page that does not answer is closed, not waited on
        tab = await guard.leave(call.session, tab)
    call.services.file_grants.grant(tab.page, url)
    page, limit = tab.page, call.nav_timeout_ms
    outcome, response = await navigate(call, f"loading {url}", lambda: load(page, url, limit), tab)
    return outcome.report(f"Navigated to {page.url}{_status(response)}")


async def _history(call: Call, step: int) -> str:
    before = call.page.url
    page, limit = call.page, call.nav_timeout_ms
    move = (lambda: page.go_back(timeout=limit)) if step < 0 else (lambda: page.go_forward(timeout=limit))
    outcome, response = await navigate(call, "going back" if step < 0 else "going forward", move)
    if response is None and call.page.url == before:
        which = "previous" if step < 0 else "next"
        raise PageError(f"there is no {which} page in this tab's history", "use `browse goto URL`")
    return outcome.report(f"{'Back' if step < 0 else 'Forward'} → {call.page.url}")


@handler("back")
async def back(call: Call) -> str:
    return await _history(call, -1)


@handler("forward")
async def forward(call: Call) -> str:
    return await _history(call, 1)


@handler("reload")
async def reload(call: Call) -> str:
    page, limit = call.page, call.nav_timeout_ms
    outcome, response = await navigate(call, "reloading", lambda: page.reload(timeout=limit))
    return outcome.report(f"Reloaded {call.page.url}{_status(response)}")


@handler("url")
async def url(call: Call) -> str:
    return call.page.url
