"""`useragent UA`: change the user agent in place, through CDP overrides.

Recreating the browser context would drop tabs, session storage and history,
so the override is applied to each open tab (`Network.setUserAgentOverride`,
which also changes `navigator.userAgent`) and sent as a header by the context
for requests of tabs not yet overridden. New tabs get it from a tab hook.
The CDP sessions are kept: an override lasts only as long as its session.
"""

from __future__ import annotations

import asyncio
import logging

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.cdp import CdpKeeper
from refbrowse.daemon.core.session import Session, Tab
from refbrowse.daemon.handlers import Call, DaemonView, handler
from refbrowse.errors import UsageError

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


def install(daemon: DaemonView, agents: UserAgents) -> None:
    """New tabs of a session get the user agent chosen for it."""
    daemon.host.tab_hooks.append(agents.on_new_tab)


@handler("useragent")
async def useragent(call: Call) -> str:
    agent = call.args[0].strip()
    if not agent:
        raise UsageError(
            "the user agent is empty", 'for example: browse useragent "Mozilla/5.0 (X11) MyBot/1.0"'
        )
    await call.services.agents.apply(call.session, agent)
    return f"User agent set for {len(call.session.tabs)} tab(s) of session {call.session.name}: {agent}"
