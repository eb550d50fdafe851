"""Popups as soon as Chromium creates them, so an action's report does not miss one.

Playwright announces a new page only once it has set it up, which under load
can come after the action has settled and answered. Chromium's DevTools
protocol says at once that a page with an opener was created; an action that
sees that count go up waits (bounded) for Playwright's page to arrive.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger("refbrowse")


class PopupCounter:
    """How many pages the browser has created since the counter started: those with an opener, and
    all of them by browser context (a tab a Control-click opens in the background has no opener)."""

    def __init__(self) -> None:
        self.created = 0
        self.pages: dict[str, int] = {}

    def saw(self, event: dict[str, Any]) -> None:
        info = event.get("targetInfo") or {}
        if info.get("type") != "page":
            return
        context = str(info.get("browserContextId") or "")
        self.pages[context] = self.pages.get(context, 0) + 1
        if info.get("openerId"):
            self.created += 1

    def made(self, context: str) -> tuple[int, int]:
        """The counts now: pages with an opener, pages of `context` (a browserContextId)."""
        return self.created, self.pages.get(context, 0) if context else 0


class PopupCounters:
    """One counter per browser (one per daemon, in its services), started once: by the daemon as
    soon as its browser is up, or by the first action, whichever asks first."""

    def __init__(self) -> None:
        self._by_browser: weakref.WeakKeyDictionary[Browser, asyncio.Future[PopupCounter | None]] = (
            weakref.WeakKeyDictionary()
        )
        self._contexts: weakref.WeakKeyDictionary[BrowserContext, str] = weakref.WeakKeyDictionary()

    async def of(self, browser: Browser | None) -> PopupCounter | None:
        """The browser's counter; None where the protocol is not available."""
        if browser is None:
            return None
        starting = self._by_browser.get(browser)
        if starting is None:
            starting = self._by_browser[browser] = asyncio.ensure_future(_start(browser))
        # shielded: a command cancelled while it waits does not cancel the start the others share
        return await asyncio.shield(starting)

    async def context_of(self, page: Page) -> str:
        """The browserContextId of `page`'s context, asked once per context ("" where it cannot say)."""
        known = self._contexts.get(page.context)
        if known is None:
            try:
                cdp = await page.context.new_cdp_session(page)
                info = await cdp.send("Target.getTargetInfo")
                await cdp.detach()
            except PlaywrightError:
                return ""
            known = self._contexts[page.context] = str(info["targetInfo"].get("browserContextId") or "")
        return known


async def _start(browser: Browser) -> PopupCounter | None:
    counter = PopupCounter()
    try:
        cdp = await browser.new_browser_cdp_session()
        cdp.on("Target.targetCreated", counter.saw)
        await cdp.send("Target.setDiscoverTargets", {"discover": True})
    except PlaywrightError as exc:
        log.info("popups are seen only through Playwright: %s", exc.message)
        return None
    return counter


async def arrived(
    counter: PopupCounter | None, context: str, since: tuple[int, int], have: Callable[[], int], limit_ms: int
) -> None:
    """Wait until Playwright has announced as many pages as Chromium created since `since` (the
    counter's `made(context)` then): popups anywhere, or pages in the acting tab's context."""

    def created() -> int:
        if counter is None:
            return 0
        (popups, pages), (popups_then, pages_then) = counter.made(context), since
        return max(popups - popups_then, pages - pages_then)

    waited = 0
    while counter is not None and have() < created() and waited < limit_ms:
        await asyncio.sleep(0.02)
        waited += 20
