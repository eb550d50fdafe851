"""One DevTools session per page, kept attached for the page's life.

Chromium drops an override (a user agent, a device scale) when the DevTools
session that set it detaches, so the sessions that set them are kept here,
one per page, shared by every command that needs one.
"""

from __future__ import annotations

import asyncio

from playwright.async_api import CDPSession, Page


class CdpKeeper:
    def __init__(self) -> None:
        self._sessions: dict[Page, asyncio.Future[CDPSession]] = {}

    async def session(self, page: Page) -> CDPSession:
        """The page's DevTools session, attached on first use.

        Callers that ask at once (a new tab's settings and its page tools) share one attach:
        two sessions would each hold their own overrides, and one could not take back the
        other's (`locale off`: "Another locale override is already in effect").
        """
        pending = self._sessions.get(page)
        if pending is None:
            pending = self._sessions[page] = asyncio.ensure_future(page.context.new_cdp_session(page))
            pending.add_done_callback(lambda done: self._failed(page, done))
            page.once("close", self._forget)
        return await asyncio.shield(pending)

    def _failed(self, page: Page, done: asyncio.Future[CDPSession]) -> None:
        if (done.cancelled() or done.exception() is not None) and self._sessions.get(page) is done:
            del self._sessions[page]  # the next caller tries again

    def _forget(self, page: Page) -> None:
        self._sessions.pop(page, None)
