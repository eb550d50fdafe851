"""Each session's chosen user agent, held in place on every tab through its kept DevTools session.

Chromium drops an override when the DevTools session that set it detaches, so
the override goes through `CdpKeeper`, and new tabs of the session get it too.
"""

from __future__ import annotations

import asyncio
import logging

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab

log = logging.getLogger("refbrowse")


class UserAgents:
    """Each session's chosen user agent and the CDP sessions that hold it in place."""

    def __init__(self, cdp: CdpKeeper) -> None:
        self.chosen: dict[str, str] = {}
        self._cdp = cdp
        self._tasks: set[asyncio.Task[None]] = set()

    async def apply(self, session: Session, agent: str) -> None:
        self.chosen[session.name] = agent
        await session.context.set_extra_http_headers({"User-Agent": agent})
        for tab in list(session.tabs):
            await self.override(tab.page, agent)

    async def override(self, page: Page, agent: str) -> None:
        if page.is_closed():
            return
        cdp = await self._cdp.session(page)
        await cdp.send("Network.setUserAgentOverride", {"userAgent": agent})

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        agent = self.chosen.get(session.name)
        if agent is not None:
            task = asyncio.ensure_future(self._quietly(tab.page, agent))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _quietly(self, page: Page, agent: str) -> None:
        try:
            await self.override(page, agent)
        except PlaywrightError as exc:
            log.info("user agent not applied to a new tab: %s", exc.message)
