"""The console flood: 200,000 console messages on one tab while another tab answers `url`.

Each tool starts fresh, opens a quiet page in tab 1 and the flooding page in
tab 2, switches back to tab 1, then asks for tab 1's URL again and again for a
fixed window while a sampler records the memory of the tool's own processes.
What it shows: whether one noisy page slows the agent's work on another, and
how much memory the tool spends holding the messages.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from harness.context import OURS, Context
from harness.procs import memory_mb
from harness.stats import NotAvailable, ToolFailed, summary, timed
from harness.tool import Tool

MESSAGES = 200_000
WINDOW = 10.0
QUIET = "/fixtures/warm.html"
BASELINE_RUNS = 10


class Sampler(threading.Thread):
    """The peak of the summed RSS of a tool's own processes, sampled every 100 ms."""

    def __init__(self, tool: Tool) -> None:
        super().__init__(daemon=True)
        self.tool = tool
        self.peak_mb = 0.0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.1):
            self.peak_mb = max(self.peak_mb, memory_mb(self.tool.own_pids())["rss_mb"])


def latencies(tool: Tool, expected: str, until: float) -> list[float]:
    found: list[float] = []
    while time.monotonic() < until or len(found) < 3:
        seconds, printed = timed(tool.url)
        if expected not in printed:
            raise ToolFailed(f"`url` answered for the wrong tab: {printed[:80]!r}")
        found.append(seconds)
    return found


def flood(ctx: Context, tool: Tool, messages: int) -> dict[str, Any]:
    quiet = ctx.url(QUIET)
    tool.stop()
    tool.start()
    tool.goto(quiet)
    baseline = [timed(tool.url)[0] for _ in range(BASELINE_RUNS)]
    sampler = Sampler(tool)
    sampler.start()
    opening, _ = timed(lambda: tool.new_tab(ctx.url(f"/fixtures/flood.html?n={messages}")))
    switching, _ = timed(lambda: tool.switch_tab(1))
    during = latencies(tool, quiet, time.monotonic() + WINDOW)
    sampler.done.set()
    sampler.join()
    own = memory_mb(tool.own_pids())
    return {
        "open the flooding tab (s)": opening,
        "switch back to tab 1 (s)": switching,
        "baseline url": summary(baseline),
        "url during flood": summary(during),
        "samples during flood": during,
        "own peak RSS, sampled (MB)": sampler.peak_mb,
        "own peak RSS, VmHWM (MB)": own["peak_rss_mb"],
        "own RSS after (MB)": own["rss_mb"],
    }


def run(ctx: Context) -> dict[str, Any]:
    messages = 20_000 if ctx.quick else MESSAGES
    results: dict[str, Any] = {"messages": messages, "window_s": WINDOW}
    for name in ctx.pick(OURS, "agent-browser", "playwright-mcp"):
        print(f"  flood {name}", flush=True)
        tool = ctx.tools[name]
        try:
            results[name] = flood(ctx, tool, messages)
        except (NotAvailable, ToolFailed) as exc:
            results[name] = {"n/a": str(exc)}
        tool.stop()
    return results
