"""Carry a session from one browser to another: cookies, storage, tabs, the current tab.

`connect`, `disconnect`, `handoff` and `resume` replace the browser under a
running daemon. Before the old one closes, `collect_state` takes each session's
storage state (cookies, local storage, IndexedDB) and, per tab, its URL and
session storage; `restore` opens the same tabs in the new browser's context.
Session storage is per tab and not part of Playwright's storage state, so each
tab gets an init script that puts it back on its origin's first document, before
the page's own scripts run.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.devtools.scripts import called

log = logging.getLogger("refbrowse")

_SESSION_STORAGE = "() => JSON.stringify(Object.entries(sessionStorage))"


@dataclass(frozen=True, slots=True)
class CarriedTab:
    url: str
    origin: str
    session_storage: list[list[str]]


@dataclass(frozen=True, slots=True)
class CarriedSession:
    storage: dict[str, Any]
    tabs: tuple[CarriedTab, ...]
    current: int  # index into tabs, -1 when the session had none
    pages: tuple[Page, ...]  # the pages `tabs` were taken from, in the same order


# Called with (old page, new page) before the new page loads the old one's URL.
Carried = Callable[[Page, Page], None]


async def collect_state(context: BrowserContext, pages: list[Page], current: Page | None) -> CarriedSession:
    storage: dict[str, Any] = dict(await context.storage_state(indexed_db=True))
    live = [page for page in pages if not page.is_closed()]
    tabs = tuple([await _tab_state(page) for page in live])
    index = live.index(current) if current in live else len(live) - 1
    return CarriedSession(storage, tabs, index, tuple(live))


async def _tab_state(page: Page) -> CarriedTab:
    try:
        origin = await page.evaluate("() => location.origin")
        entries = json.loads(await page.evaluate(_SESSION_STORAGE))
    except PlaywrightError as exc:  # about:blank, an error page, a crashed tab: no storage to keep
        log.info("no session storage taken from %s: %s", page.url, exc.message.splitlines()[0])
        origin, entries = "", []
    return CarriedTab(page.url, str(origin), entries)


async def restore(
    context: BrowserContext, state: CarriedSession, nav_timeout_ms: int, carried: Sequence[Carried]
) -> list[Page]:
    """Open the session's tabs in `context`, in order; the pages, for the caller to adopt.

    Each of `carried` hears of every old page and the new page that stands in for
    it before that page loads: what was granted to a tab goes along with it.
    """
    pages = []
    for old, tab in zip(state.pages, state.tabs, strict=True):
        page = await context.new_page()
        pages.append(page)
        for tell in carried:
            tell(old, page)
        if tab.session_storage and tab.origin not in ("", "null"):
            await page.add_init_script(called("restore_session_storage", tab.origin, tab.session_storage))
        if tab.url and tab.url != "about:blank":
            await _open(page, tab.url, nav_timeout_ms)
    return pages


async def _open(page: Page, url: str, timeout_ms: int) -> None:
    try:
        await page.goto(url, wait_until="load", timeout=timeout_ms)
    except PlaywrightError as exc:
        # The tab stays open on whatever loaded: the agent sees it with `tabs` and can reload.
        log.warning("tab %s did not load again after the switch: %s", url, exc.message.splitlines()[0])
