"""Memory after the scripted task, per tool: its own processes and its browser's.

Own processes: refbrowse's daemon with Playwright's node driver (its child)
counted as ours; agent-browser's native daemon; @playwright/mcp's node server.
Peak RSS is each process's high-water mark (`VmHWM`) summed. The browser
figure is PSS, which splits the pages Chromium's processes share instead of
counting them once per process as RSS would.
"""

from __future__ import annotations

from typing import Any

from harness.context import OURS, Context
from harness.procs import each_process, memory_mb


def run(ctx: Context) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for name in ctx.pick():
        tool = ctx.tools[name]
        if not tool.root_pid():
            continue
        own = tool.own_pids()
        table[name] = {
            "own": memory_mb(own),
            "own, by process": each_process(own),
            "browser": memory_mb(tool.browser_pids()),
        }
    ours = table.get(OURS, {}).get("own", {}).get("peak_rss_mb")
    ratios = {
        name: ours / row["own"]["peak_rss_mb"]
        for name, row in table.items()
        if name != OURS and ours and row["own"]["peak_rss_mb"]
    }
    return {"after the scripted task": table, "own peak RSS ratio": ratios}
