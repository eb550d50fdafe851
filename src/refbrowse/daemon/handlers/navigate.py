"""Navigate: goto, back, forward, reload, url.

Each navigation runs through `perform.perform`, so it settles (an SPA that
renders after `load` has rendered) and reports what else happened.
"""

from __future__ import annotations

from playwright.async_api import Response

from refbrowse.daemon.action.navigation import (
    CHROME_ERROR_PAGE,
    FailedLoad,
    LastLoad,
    LoadState,
    load,
    navigate,
)
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.services.policy import ALLOW_FILE_FLAG
from refbrowse.errors import ActionTimeout, BrowseError, NavigationError, PageError


def _until(call: Call) -> LoadState:
    """What a navigation waits for: with `--no-wait`, only the server's answer (the page still loads)."""
    return "commit" if call.flag("--no-wait") else "load"


def _checked_cause(call: Call, exc: BrowseError) -> BrowseError:
    """A failed load's error, its hint checked against the session's own state: a session cut off
    the network by `offline on` is told how to reconnect, not that the machine has no network."""
    if isinstance(exc, NavigationError) and call.services.settings.value(call.session.name, "offline"):
        name = call.session.name
        return NavigationError(exc.message, f"session {name} is offline: `browse offline off` reconnects it")
    return exc


def _status(response: Response | None) -> str:
    return f" ({response.status})" if response else ""


@handler("goto")
async def goto(call: Call) -> str:
    url = call.services.policy.checked_url(call.args[0], bool(call.flag(ALLOW_FILE_FLAG)))
    # A page that does not answer is closed, not waited on: the URL opens in a fresh tab.
    tab = await call.services.tab_guard.leave(call.session, call.tab)
    call.services.file_grants.grant(tab.page, url)
    page, limit = tab.page, call.nav_timeout_ms
    until = _until(call)
    last = tab.memory.of(LastLoad)
    last.failed = None
    try:
        outcome, response = await navigate(call, f"loading {url}", lambda: load(page, url, limit, until), tab)
    except (NavigationError, ActionTimeout) as exc:
        last.failed = FailedLoad(url, exc.message, page.url)
        raise _checked_cause(call, exc)  # noqa: B904 (the same error, or one in its place)
    return outcome.report(f"Navigated to {page.url}{_status(response)}")


async def _history(call: Call, step: int) -> str:
    before = call.page.url
    page, limit, until = call.page, call.nav_timeout_ms, _until(call)
    go = page.go_back if step < 0 else page.go_forward
    doing = "going back" if step < 0 else "going forward"
    outcome, response = await navigate(call, doing, lambda: go(timeout=limit, wait_until=until))
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
    until = _until(call)
    try:
        outcome, response = await navigate(
            call, "reloading", lambda: page.reload(timeout=limit, wait_until=until)
        )
    except NavigationError as exc:
        raise _checked_cause(call, exc)  # noqa: B904 (the same error, or one in its place)
    return outcome.report(f"Reloaded {call.page.url}{_status(response)}")


@handler("url")
async def url(call: Call) -> str:
    """The tab's URL; after a failed `goto`, the URL that failed (the tab shows an error page)."""
    failed, shown = call.tab.memory.of(LastLoad).failed, call.page.url
    if failed is None or shown not in (failed.left_on, CHROME_ERROR_PAGE):
        return shown
    stays = "shows Chromium's error page" if shown == CHROME_ERROR_PAGE else f"is still on {shown}"
    call.daemon.notices.add(f"this URL did not load ({failed.error}); the tab {stays}")
    return failed.url
