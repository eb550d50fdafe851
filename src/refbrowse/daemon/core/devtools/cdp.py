"""One DevTools session per page, kept attached for the page's life.

Chromium drops an override (a user agent, a device scale) when the DevTools
session that set it detaches, so the sessions that set them are kept here,
one per page, shared by every command that needs one.
"""

from __future__ import annotations

from playwright.async_api import CDPSession, Page


class CdpKeeper:
    def __init__(self) -> None:
        self._sessions: dict[Page, CDPSession] = {}

    async def session(self, page: Page) -> CDPSession:
        """The page's DevTools session, attached on first use."""
        cdp = self._sessions.get(page)
        if cdp is None:
            cdp = self._sessions[page] = await page.context.new_cdp_session(page)
            page.once("close", self._forget)
        return cdp

    def _forget(self, page: Page) -> None:
        self._sessions.pop(page, None)
