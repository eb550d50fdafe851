"""Warm per-command latency: every tool's daemon and browser already running.

Each figure is one command, timed end to end as the agent sees it (process
start, request, reply printed), on the same small fixture page. Refs for
`click` and `fill` come from each tool's own snapshot, taken (untimed) before
the first timed run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.context import OURS, Context
from harness.procs import command_of
from harness.stats import NotAvailable, alternate, figure, timed
from harness.tool import Tool, find_ref
from refbrowse.daemon.core.browser.chromium import launch_flags

PAGE = "/fixtures/warm.html"
THINK_S = 0.5  # an agent's pause between a goto's answer and its snapshot (a model call takes longer)


def _nothing(tool: Tool) -> None:
    """Most commands need no preparation."""


@dataclass(frozen=True)
class Op:
    label: str
    runs: int
    act: Callable[[Tool, int], str]
    prepare: Callable[[Tool], None] = _nothing


def _snapshot(interactive: bool) -> Callable[[Tool, int], str]:
    def act(tool: Tool, turn: int) -> str:
        if interactive and not tool.has_interactive_snapshot:
            raise NotAvailable("no interactive-only snapshot")
        return tool.snapshot(interactive)

    return act


class RefTarget:
    """One element of the warm page, found in each tool's own snapshot once."""

    def __init__(self, role: str, name: str) -> None:
        self.role, self.name = role, name
        self.refs: dict[str, str] = {}

    def prepare(self, tool: Tool) -> None:
        if tool.name not in self.refs:
            self.refs[tool.name] = find_ref(
                tool.snapshot(tool.has_interactive_snapshot), self.role, self.name
            )

    def __getitem__(self, tool: Tool) -> str:
        return self.refs[tool.name]


def ops(ctx: Context) -> list[Op]:
    page = ctx.url(PAGE)
    button, box = RefTarget("button", "Add one"), RefTarget("textbox", "Name")
    size, gift = RefTarget("combobox", "Size"), RefTarget("checkbox", "Gift")
    many, few = ctx.runs_warm, ctx.runs
    return [
        Op("goto", many, lambda t, _: t.goto(page)),
        Op("url", many, lambda t, _: t.url()),
        Op("text", many, lambda t, _: t.text()),
        Op("snapshot -i", few, _snapshot(True)),
        Op("snapshot (full)", few, _snapshot(False)),
        # the first snapshot of a new document, asked for at once: the worst case for a prepared one
        Op("snapshot -i after goto", few, _snapshot(True), lambda t: _goto(t, page)),
        # …and as an agent asks for it: after reading the goto's answer (half a second here)
        Op("snapshot -i 0.5 s after goto", few, _snapshot(True), lambda t: _goto(t, page, THINK_S)),
        Op("click @ref", few, lambda t, _: t.click(button[t]), button.prepare),
        Op("fill @ref", few, lambda t, turn: t.fill(box[t], f"run {turn}"), box.prepare),
        Op("select @ref", few, lambda t, turn: t.select(size[t], ("Small", "Large")[turn % 2]), size.prepare),
        Op("check @ref", few, lambda t, _: t.check(gift[t]), gift.prepare),
        Op("evaluate js", few, lambda t, _: t.evaluate("document.title")),
        # what the agent needs to see an action's effect: the action's answer if it shows the page,
        # else the action followed by a snapshot (agent-browser's `snapshot -i`, @playwright/cli's `snapshot`)
        Op("goto with refs", few, lambda t, _: t.goto_and_see(page)),
        *act_and_see_ops(few),
    ]


def act_and_see_ops(runs: int) -> list[Op]:
    """The actions again, each followed by what shows its effect; refs read anew (a goto came between)."""
    button, box = RefTarget("button", "Add one"), RefTarget("textbox", "Name")
    size, gift = RefTarget("combobox", "Size"), RefTarget("checkbox", "Gift")

    def see(act: Callable[[Tool, int], str]) -> Callable[[Tool, int], str]:
        return lambda t, turn: t.act_and_see(lambda: act(t, turn))

    return [
        Op("act-and-see click", runs, see(lambda t, _: t.click(button[t])), button.prepare),
        Op("act-and-see fill", runs, see(lambda t, turn: t.fill(box[t], f"see {turn}")), box.prepare),
        Op(
            "act-and-see select",
            runs,
            see(lambda t, turn: t.select(size[t], ("Small", "Large")[turn % 2])),
            size.prepare,
        ),
        # checked on even runs, unchecked on odd ones: each run changes the box
        Op("act-and-see check", runs, see(lambda t, turn: _toggle(t, gift[t], turn)), gift.prepare),
    ]


def _toggle(tool: Tool, ref: str, turn: int) -> str:
    return tool.check(ref) if turn % 2 == 0 else tool.uncheck(ref)


def _goto(tool: Tool, page: str, think_s: float = 0.0) -> None:
    tool.goto(page)
    time.sleep(think_s)


def run(ctx: Context) -> dict[str, Any]:
    names = ctx.pick()
    for name in names:
        ctx.tools[name].start()
        ctx.tools[name].goto(ctx.url(PAGE))
    results: dict[str, Any] = {"chromium flags missing": {n: missing_flags(ctx.tools[n]) for n in names}}
    for op in ops(ctx):
        print(f"  warm {op.label}", flush=True)
        results[op.label] = figure(alternate(names, op.runs, _step(ctx, op)), OURS)
    return results


def missing_flags(tool: Tool) -> list[str]:
    """The shared launch flags absent from the tool's main Chromium process: should be none."""
    mains = [command_of(p).split() for p in tool.browser_pids() if "--type=" not in command_of(p)]
    if not mains:
        return ["(no browser process found)"]
    return [flag for flag in launch_flags() if flag not in mains[0]]


def _step(ctx: Context, op: Op) -> Callable[[str, int], float]:
    def step(name: str, turn: int) -> float:
        tool = ctx.tools[name]
        op.prepare(tool)
        seconds, _ = timed(lambda: op.act(tool, turn))
        return seconds

    return step
