"""The one line an action's report gives a page that offers tools: `page tools: a, b: `browse tools``."""

from __future__ import annotations

import asyncio

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.webmcp.listing import mention
from refbrowse.daemon.page.webmcp.watch import TabTools

ASK_S = 1.0  # asking the frames again after a navigation takes milliseconds; a wedged page gets no line


async def tools_line(tab: Tab) -> str:
    """The line naming the page's tools, or "" (none, not watched, or no answer in time).

    A tab that never heard of a tool costs nothing: there is nothing to ask again.
    """
    state = tab.memory.peek(TabTools)
    if state is None or not state.watching or not state.known():
        return ""
    try:
        tools = await asyncio.wait_for(state.current(tab.page), ASK_S)
    except (PlaywrightError, TimeoutError):
        return ""
    return mention(tools) if tools else ""
