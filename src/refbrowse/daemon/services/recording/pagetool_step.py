"""A recorded `tool` call as Playwright code: `page.webmcp.call_tool(NAME, INPUT)`.

The input is read as the call read it (against the tool's schema, so `q=3`
stays the text "3" where the field is a string). A tool of another frame is
called through that frame (`page.frame(url=…)`). The test's browser must start
with WebMCP on, as refbrowse's does: `LAUNCH_ARGS` says how.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from refbrowse.daemon.core.browser.chromium import PLAYWRIGHT_ENABLED_FEATURES, WEBMCP_FEATURE
from refbrowse.daemon.page.webmcp.arguments import parse_input
from refbrowse.daemon.page.webmcp.watch import TabTools
from refbrowse.daemon.services.recording.locators import plain, q
from refbrowse.errors import BrowseError

if TYPE_CHECKING:
    from refbrowse.daemon.services.recording.script import ScriptRun

# Playwright refuses `webmcp` unless the launch args name the feature; they repeat Playwright's own
# list, since Chromium reads only the last --enable-features switch.
LAUNCH_ARG = "--enable-features=" + ",".join((*PLAYWRIGHT_ENABLED_FEATURES, WEBMCP_FEATURE))


async def tool_step(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    name, words = str(args[0]), [str(word) for word in args[1:]]
    state = run.tab.memory.peek(TabTools)
    found = next((t for t in (state.known() if state else []) if t.name == name), None)
    if found is None:
        return [f"# browse tool {plain(name)}: the page no longer offers it; no Playwright step"]
    try:
        given = parse_input(found, words)
    except BrowseError:
        return [f"# browse tool {plain(name)}: its input could not be read again; no Playwright step"]
    run.uses_page_tools = True
    main = state is None or found.frame_id == state.main_frame
    where = (
        "page" if main else f"page.frame(url={q(state.frame_urls.get(found.frame_id, '') if state else '')})"
    )
    return [f"{where}.webmcp.call_tool({q(name)}, {given!r})"]  # JSON values are Python literals
