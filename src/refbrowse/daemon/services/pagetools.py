"""The page-tools service: every tab's WebMCP tools heard from its first moment, and calls left running.

It owns the DevTools `WebMCP` domain of each page (`page.webmcp.watch`), says
in `status` whether the browser has page tools at all (a remote or older
browser may not), keeps the calls `tool --detach` leaves running, and is the
seam where a consent gate is asked before a call runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.chromium import WEBMCP_ENV, webmcp_wanted
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.webmcp.calls import RunningCalls
from refbrowse.daemon.page.webmcp.model import PageTool
from refbrowse.daemon.page.webmcp.watch import TabTools, watch_tab
from refbrowse.errors import Unavailable

log = logging.getLogger("refbrowse")

OFF = f"off ({WEBMCP_ENV}=0)"
MISSING = "not in this browser (its DevTools has no WebMCP domain; Chromium 146 or newer has it)"


class ToolGate(Protocol):
    async def before_call(self, session: Session, tool: PageTool, given: dict[str, Any]) -> None:
        """Raise to stop a call (a consequential tool a person has not agreed to)."""
        ...


class PageTools:
    def __init__(self, cdp: CdpKeeper, remote: Callable[[], bool]) -> None:
        self._cdp, self._remote = cdp, remote
        self.running = RunningCalls()
        self.gate: ToolGate | None = None  # the consent gate, when one is set up
        self.support = "" if self.wanted else OFF  # "" until a tab has tried

    @property
    def wanted(self) -> bool:
        return self._remote() or webmcp_wanted()

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        if self.wanted:
            spawn(self._watch_quietly(tab))

    def status_line(self) -> str:
        if self.support == "on" and self._remote():
            return (
                "page tools (WebMCP): the remote browser's DevTools has them"
                " (its pages see them if it runs with --enable-features=WebMCP)"
            )
        return f"page tools (WebMCP): {self.support or 'not checked yet'}"

    async def of(self, tab: Tab) -> TabTools:
        """The tab's tools, watched from now on if they were not; `Unavailable` if the browser has none."""
        if not self.wanted:
            raise Unavailable(
                f"page tools are off ({WEBMCP_ENV}=0)", f"run `{WEBMCP_ENV}=1 browse restart` to turn them on"
            )
        tools = tab.memory.of(TabTools)
        if not tools.watching and not await self._watch(tab):
            raise Unavailable(f"page tools: {MISSING}", "use a newer Chromium: `browse install`")
        return tools

    async def _watch_quietly(self, tab: Tab) -> None:
        await self._watch(tab)

    async def _watch(self, tab: Tab) -> bool:
        try:
            has = await watch_tab(tab, self._cdp)
        except PlaywrightError as exc:
            log.info("page tools not watched in a tab: %s", exc.message)
            return False
        self.support = "on" if has else MISSING
        return has
