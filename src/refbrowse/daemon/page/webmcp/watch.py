"""Each tab's page tools, kept from the DevTools `WebMCP` events of the sessions that hear them.

The page's own DevTools session hears the tools of its main frame and of the
frames in its process; a cross-site frame lives in a process of its own and is
heard through a session of its own (`ToolSource`). Chromium says when a tool is
added or removed, but not when a document that registered tools is replaced:
a frame that navigates marks the list stale, and the next reader asks each
session again (WebMCP.disable, then enable: enabling reports every tool the
frames hold now, before it answers) and drops tools of frames that are gone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import CDPSession, Frame, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.pwerrors import unknown_devtools_method
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.webmcp.model import TOOLS_MAX, PageTool, tool_from_event

log = logging.getLogger("refbrowse")

FRAMES_MAX = 40  # frames looked at for sessions of their own: a page of ad frames stays quick
EARLY_MAX = 100  # answers kept that came before their call was known


class ToolSource:
    """One DevTools session whose `WebMCP` events a tab hears: the page's, or an out-of-process frame's."""

    def __init__(self, cdp: CDPSession, tools: TabTools, frame: Frame | None) -> None:
        self.cdp, self.frame, self._tools = cdp, frame, tools
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._early: dict[str, dict[str, Any]] = {}
        cdp.on("WebMCP.toolsAdded", self._added)
        cdp.on("WebMCP.toolsRemoved", self._removed)
        cdp.on("WebMCP.toolResponded", self._responded)

    async def enable(self) -> None:
        await self.cdp.send("WebMCP.enable")

    async def ask_again(self) -> None:
        """Every tool the session's frames hold now (not while a call is running: it would be lost)."""
        if self.pending:
            return
        await self.cdp.send("WebMCP.disable")
        self._tools.drop_source(self)
        await self.cdp.send("WebMCP.enable")

    async def frames(self) -> dict[str, str]:
        """The session's frames now: id → URL."""
        tree = await self.cdp.send("Page.getFrameTree")
        found: dict[str, str] = {}
        stack = [tree.get("frameTree", {})]
        while stack:
            node = stack.pop()
            frame = node.get("frame", {})
            found[str(frame.get("id", ""))] = str(frame.get("url", "")) + str(frame.get("urlFragment", ""))
            stack += node.get("childFrames", [])
        return found

    async def invoke(
        self, tool: PageTool, arguments: dict[str, Any]
    ) -> tuple[str, asyncio.Future[dict[str, Any]]]:
        """Start a call: its DevTools invocation id, and the future of its `toolResponded` event."""
        params = {"frameId": tool.frame_id, "toolName": tool.name, "input": arguments}
        answer = await self.cdp.send("WebMCP.invokeTool", params)
        invocation = str(answer.get("invocationId", ""))
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        early = self._early.pop(invocation, None)
        if early is not None:
            done.set_result(early)
        else:
            self.pending[invocation] = done
        return invocation, done

    async def cancel(self, invocation: str) -> None:
        await self.cdp.send("WebMCP.cancelInvocation", {"invocationId": invocation})

    def fail_pending(self, why: str) -> None:
        for done in self.pending.values():
            if not done.done():
                done.set_result({"status": "Error", "errorText": why})
        self.pending.clear()

    def _added(self, params: dict[str, Any]) -> None:
        for raw in params.get("tools") or ():
            tool = tool_from_event(raw, self)
            if tool is not None:
                self._tools.put(tool)

    def _removed(self, params: dict[str, Any]) -> None:
        for raw in params.get("tools") or ():
            if isinstance(raw, dict):
                self._tools.remove((str(raw.get("frameId")), str(raw.get("name"))))

    def _responded(self, params: dict[str, Any]) -> None:
        invocation = str(params.get("invocationId", ""))
        done = self.pending.pop(invocation, None)
        if done is None:  # the event came before `invoke` heard its answer
            if len(self._early) >= EARLY_MAX:
                self._early.pop(next(iter(self._early)))
            self._early[invocation] = params
        elif not done.done():
            done.set_result(params)


class TabTools:
    """A tab's page tools (in its `TabMemory`): kept from events, asked again when a frame moved."""

    def __init__(self) -> None:
        self.sources: list[ToolSource] = []
        self.watching = False
        self.version = 0  # goes up whenever the list may have changed
        self.stale = True
        self.over = 0  # tools a page registered beyond `TOOLS_MAX`
        self.frame_urls: dict[str, str] = {}
        self.main_frame = ""
        self._tools: dict[tuple[str, str], PageTool] = {}
        self._tried: dict[Frame, str] = {}
        self._changed = asyncio.Event()

    def known(self) -> list[PageTool]:
        """The tools as last heard, without asking the page (for a one-line mention)."""
        return list(self._tools.values())

    async def current(self, page: Page) -> list[PageTool]:
        """The tools the tab's frames hold now: the main frame's first, then each other frame's, by name."""
        if self.stale and self.watching:
            self.stale = False
            try:
                await self._find_frame_sources(page)
                for source in list(self.sources):
                    await self._refresh(source)
            except BaseException:  # cut short (a bound, a closed tab): asked again next time
                self.stale = True
                raise
        return sorted(self._tools.values(), key=lambda t: (t.frame_id != self.main_frame, t.frame_id, t.name))

    async def changed(self, version: int, timeout: float) -> None:
        """Until the list's version is past `version`, or `timeout` seconds."""
        while self.version <= version:
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except TimeoutError:
                return

    def moved(self, _frame: Frame | None = None) -> None:
        """A frame navigated or went: the list is asked again before it is next read."""
        self.stale = True
        self._bump()

    def put(self, tool: PageTool) -> None:
        if tool.key not in self._tools and len(self._tools) >= TOOLS_MAX:
            self.over += 1
            return
        self._tools[tool.key] = tool
        self._bump()

    def remove(self, key: tuple[str, str]) -> None:
        if self._tools.pop(key, None) is not None:
            self._bump()

    def drop_source(self, source: ToolSource) -> None:
        for key in [key for key, tool in self._tools.items() if tool.source is source]:
            del self._tools[key]
        self.over = 0
        self._bump()

    def _bump(self) -> None:
        self.version += 1
        self._changed.set()

    async def _refresh(self, source: ToolSource) -> None:
        """Ask the session again, and forget it, with its tools, if its frame is gone."""
        try:
            await source.ask_again()
            urls = await source.frames()
        except PlaywrightError as exc:
            log.info("a frame's tools are gone with its session: %s", exc.message)
            self.sources.remove(source)
            source.fail_pending("the frame that offered the tool went away")
            self.drop_source(source)
            return
        if source.frame is None:
            self.main_frame = next(iter(urls), "")
        self.frame_urls.update(urls)
        for key in [k for k, t in self._tools.items() if t.source is source and k[0] not in urls]:
            del self._tools[key]

    async def _find_frame_sources(self, page: Page) -> None:
        """Sessions of their own for cross-site frames not yet heard (a frame in its parent's
        process is heard by the parent's session: Playwright refuses it a session)."""
        for frame in page.frames[1:FRAMES_MAX]:
            origin = _origin(frame.url)
            parent = frame.parent_frame
            if (
                not origin
                or parent is None
                or origin == _origin(parent.url)
                or self._tried.get(frame) == origin
            ):
                continue
            self._tried[frame] = origin
            try:
                cdp = await page.context.new_cdp_session(frame)
            except PlaywrightError:
                continue
            source = ToolSource(cdp, self, frame)
            self.sources.append(source)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""


async def watch_tab(tab: Tab, keeper: CdpKeeper) -> bool:
    """Hear the tab's page tools from now on; False if the browser's DevTools has no WebMCP domain."""
    tools = tab.memory.of(TabTools)
    if tools.watching:
        return True
    tools.watching = True  # said at once: a command and the new-tab hook may both ask
    try:
        source = ToolSource(await keeper.session(tab.page), tools, None)
        tools.sources.insert(0, source)
        await source.enable()
    except PlaywrightError as exc:
        tools.sources.clear()
        tools.watching = False
        if unknown_devtools_method(exc):
            return False
        raise
    tab.page.on("framenavigated", tools.moved)
    tab.page.on("framedetached", tools.moved)
    return True
