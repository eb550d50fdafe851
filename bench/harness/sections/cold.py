"""Cold start: nothing of the tool running → first page loaded and its URL printed.

For the CLIs that is one `goto`/`open` command that has to start the daemon
and the browser; for @playwright/mcp it is the server's start, the MCP
handshake (`initialize`, `tools/list`) and `browser_navigate`, as a client
does before its first page.
"""

from __future__ import annotations

from typing import Any

from harness.context import BASE, OURS, Context
from harness.stats import ToolFailed, alternate, figure, timed


def run(ctx: Context) -> dict[str, Any]:
    # the settle wait comes after actions, not before the first page: one @playwright/mcp is enough here
    names = ctx.pick(OURS, BASE, "agent-browser", "playwright-cli", "playwright-mcp")
    page = ctx.url("/fixtures/warm.html")
    for name in names:
        ctx.tools[name].stop()

    def step(name: str, turn: int) -> float:
        tool = ctx.tools[name]
        tool.stop()
        seconds, printed = timed(lambda: tool.cold_start(page))
        if page not in printed:
            raise ToolFailed(f"the first page's URL was not printed: {printed[:80]!r}")
        return seconds

    samples = alternate(names, ctx.runs, step)
    for name in names:
        ctx.tools[name].stop()
    return {"cold start": figure(samples, OURS)}
