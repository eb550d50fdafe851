"""Snapshot size in characters, and the share of actionable elements that got a ref.

On the fixture pages and on large real documents (Debian's Python docs). The
characters are what each tool prints, header and footer included: that is
what an agent pays for. The count of actionable elements is the page's own
(visible links, buttons, form fields), taken with one evaluate; a tool's
actionable refs are refs on lines whose role is one an agent acts on.
"""

from __future__ import annotations

import re
from typing import Any

from harness.context import OURS, Context
from harness.sections.task import errand
from harness.stats import NotAvailable, ToolFailed, rotated, timed
from harness.tool import Tool, actionable_refs

TREE_LINE = re.compile(r"^\s*- ")
FIXTURE_PAGES = ("/fixtures/warm.html", "/app/login", "/app/results?q=widget", "/app/order/1")
DOC_PAGES = ("/docs/library/index.html", "/docs/reference/datamodel.html", "/docs/library/stdtypes.html")

COUNT_ACTIONABLE = """(() => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, ' +
    '[role=button], [role=link], [role=checkbox], [role=tab], [role=menuitem], [contenteditable=true]';
  return [...document.querySelectorAll(sel)].filter((e) => {
    const box = e.getBoundingClientRect();
    return (box.width > 0 || box.height > 0) && getComputedStyle(e).visibility !== 'hidden';
  }).length;
})()"""


def measure(tool: Tool, interactive: bool) -> dict[str, Any] | None:
    if interactive and not tool.has_interactive_snapshot:
        return None
    try:
        seconds, text = timed(lambda: tool.snapshot(interactive))
    except (NotAvailable, ToolFailed) as exc:
        return {"n/a": str(exc)}
    return {
        "chars": len(text),
        "tree_chars": tree_chars(text),
        "seconds": seconds,
        "actionable_refs": actionable_refs(text),
    }


def tree_chars(text: str) -> int:
    """Characters of the tree lines alone: without headers, footers, fences (the fixed cost per call)."""
    return sum(len(line) + 1 for line in text.splitlines() if TREE_LINE.match(line))


def actionable_in_page(ctx: Context, path: str) -> int:
    """Counted through agent-browser's evaluate: the figure belongs to the page, not to a tool."""
    counter = ctx.tools.get("agent-browser") or ctx.tools[OURS]
    counter.goto(ctx.url(path))
    return int(float(counter.evaluate(COUNT_ACTIONABLE).strip().strip('"') or 0))


def signed_in(ctx: Context, tool: Tool) -> None:
    """Running, and logged in to the shop (its pages past the login need the cookie), as after the task."""
    tool.start()
    try:
        errand(tool, ctx.base)
    except (NotAvailable, ToolFailed) as exc:
        print(f"    {tool.name} could not log in to the shop: {exc}", flush=True)


def run(ctx: Context) -> dict[str, Any]:
    names = ctx.pick(OURS, "agent-browser", "playwright-cli", "playwright-mcp")
    for name in names:
        signed_in(ctx, ctx.tools[name])
    pages = [*FIXTURE_PAGES, *(DOC_PAGES if ctx.docs else ())]
    results: dict[str, Any] = {}
    for turn, path in enumerate(pages):
        print(f"  snapshot {path}", flush=True)
        row: dict[str, Any] = {"actionable elements": actionable_in_page(ctx, path)}
        for name in rotated(names, turn):
            tool = ctx.tools[name]
            tool.goto(ctx.url(path))
            row[name] = {"interactive": measure(tool, True), "full": measure(tool, False)}
        results[path] = row
    return {"pages": results}
