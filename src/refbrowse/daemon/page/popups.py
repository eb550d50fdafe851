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

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger("refbrowse")


class PopupCounter:
    """How many pages with an opener the browser has created since the counter started."""

    def __init__(self) -> None:
        self.created = 0

    def saw(self, event: dict[str, Any]) -> None:
        info = event.get("targetInfo") or {}
        if info.get("type") == "page" and info.get("openerId"):
            self.created += 1


class PopupCounters:
    """One counter per browser (one per daemon, in its services), started once: by the daemon as
    soon as its browser is up, or by the first action, whichever asks first."""

    def __init__(self) -> None:
        self._by_browser: weakref.WeakKeyDictionary[Browser, asyncio.Future[PopupCounter | None]] = (
            weakref.WeakKeyDictionary()
        )

    async def of(self, browser: Browser | None) -> PopupCounter | None:
        """The browser's counter; None where the protocol is not available."""
        if browser is None:
            return None
        starting = self._by_browser.get(browser)
        if starting is None:
            starting = self._by_browser[browser] = asyncio.ensure_future(_start(browser))
        # shielded: a command cancelled while it waits does not cancel the start the others share
        return await asyncio.shield(starting)


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


async def arrived(counter: PopupCounter | None, since: int, have: Callable[[], int], limit_ms: int) -> None:
    """Wait until Playwright has announced as many pages as Chromium created since `since`."""
    waited = 0
    while counter is not None and have() < counter.created - since and waited < limit_ms:
        await asyncio.sleep(0.02)
        waited += 20
