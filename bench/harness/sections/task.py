"""The scripted task: a 12-step errand on the local shop, done by each tool its own way.

Log in, search, open a result, fill an order form (text, select, checkbox),
submit, verify the confirmation. Every ref comes from the tool's own output:
what the navigation printed when it shows the page, else a snapshot (for
@playwright/mcp: `browser_snapshot` over JSON-RPC). Measured: wall
time of the whole task, and the characters the tool printed for it (what an
agent would read back into its context).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from harness.context import OURS, Context
from harness.stats import ToolFailed, alternate, figure, timed
from harness.tool import Tool, find_ref

LOOKS = 3
CONFIRMATION = "Order confirmed: Blue widget for Ada Lovelace, express shipping, gift wrapped."


def look(tool: Tool, role: str, name: str, printed: str = "") -> tuple[str, str]:
    """The text that shows the element the next step needs, and that element's ref.

    First what the last command printed: refbrowse prints the new page's refs
    after a navigation, @playwright/mcp a snapshot after every action. Else a
    snapshot; a tool that answers before the new page has rendered gets
    another look, as an agent would take one: those extra snapshots count in
    time and characters.
    """
    if printed:
        try:
            return printed, find_ref(printed, role, name)
        except ToolFailed:
            pass
    for _ in range(LOOKS - 1):
        seen = tool.snapshot(tool.has_interactive_snapshot)
        try:
            return seen, find_ref(seen, role, name)
        except ToolFailed:
            time.sleep(0.05)
    seen = tool.snapshot(tool.has_interactive_snapshot)
    return seen, find_ref(seen, role, name)


def errand(tool: Tool, base: str) -> None:
    """The steps, as an agent that reads each page's refs before acting on it."""
    seen, user = look(tool, "textbox", "Username", tool.goto(base + "/app/login"))
    tool.fill(user, "ada")
    tool.fill(find_ref(seen, "textbox", "Password"), "correct horse")
    arrived = tool.click_to(find_ref(seen, "button", "Log in"), "/app/search")
    seen, query = look(tool, "searchbox", "Search products", arrived)
    tool.fill(query, "widget")
    arrived = tool.click_to(find_ref(seen, "button", "Search"), "/app/results")
    arrived = tool.click_to(look(tool, "link", "Blue widget", arrived)[1], "/app/item/")
    arrived = tool.click_to(look(tool, "link", "Order this item", arrived)[1], "/app/order/")
    seen, full_name = look(tool, "textbox", "Full name", arrived)
    tool.fill(full_name, "Ada Lovelace")
    tool.select(find_ref(seen, "combobox", "Shipping"), "express")
    tool.check(find_ref(seen, "checkbox", "Gift wrap"))
    tool.click_to(find_ref(seen, "button", "Place order"), "/app/confirmation")
    final = tool.text()
    if CONFIRMATION not in final:
        raise ToolFailed(f"no confirmation at the end: {final[-160:]!r}")


def run(ctx: Context) -> dict[str, Any]:
    names = ctx.pick()
    ctx.restart(names)
    printed: dict[str, list[float | None]] = {name: [] for name in names}
    commands: dict[str, list[tuple[str, float, int]]] = {name: [] for name in names}

    def step(name: str, turn: int) -> float:
        tool = ctx.tools[name]
        before, mark = tool.printed, len(tool.log)
        try:
            seconds, _ = timed(lambda: errand(tool, ctx.base))
        except Exception:
            printed[name].append(None)
            raise
        printed[name].append(float(tool.printed - before))
        commands[name] += tool.log[mark:]
        return seconds

    wall = alternate(names, ctx.runs, step)
    chars = {name: printed[name] if wall[name] else [] for name in names}
    schema = {name: getattr(ctx.tools[name], "tools_list_chars", 0) for name in names}
    # What an MCP client's model reads for one task: the tool list it loads, then every answer.
    with_schema: dict[str, list[float | None]] = {
        name: [None if c is None else c + schema[name] for c in chars[name]] for name in names
    }
    return {
        "wall time": figure(wall, OURS),
        "characters printed": figure(chars, OURS),
        "tool schema characters (tools/list)": {n: c for n, c in schema.items() if c},
        "characters per task, tools/list included": figure(with_schema, OURS),
        "per command": {name: breakdown(calls) for name, calls in commands.items() if calls},
    }


def breakdown(calls: list[tuple[str, float, int]]) -> dict[str, dict[str, float]]:
    """Median time and characters of each kind of command over the task's runs: where the time goes."""
    kinds: dict[str, list[tuple[float, int]]] = {}
    for command, seconds, chars in calls:
        kinds.setdefault(command, []).append((seconds, chars))
    return {
        command: {
            "calls": len(rows),
            "median_ms": 1000 * statistics.median(s for s, _ in rows),
            "median_chars": statistics.median(c for _, c in rows),
        }
        for command, rows in kinds.items()
    }
