"""The accessibility audit behind `audit`: axe-core run in the page, its findings given refs.

axe-core is a dependency, not copied code: the build `axe-playwright-python`
ships (`axe.min.js`) is read from that package and defined in the page before
each run. Violations come back grouped by rule, worst impact first; the first
`PER_RULE` elements of each rule are found in a whole-page snapshot taken just
after (`page/elementrefs.py`), so each has the ref an agent acts on, not a CSS
path. A page with thousands of violations costs the same answer: the count per
rule, `PER_RULE` elements each.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Coroutine
from contextlib import suppress
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from playwright.async_api import ElementHandle, JSHandle
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.elementrefs import NO_REF, ElementRef, by_box, ref_of
from refbrowse.daemon.page.snapshot.service import take_snapshot
from refbrowse.errors import ActionTimeout, PageError, UsageError

PER_RULE = 5  # elements shown (and given refs) per violated rule
IMPACTS = ("critical", "serious", "moderate", "minor")
_AUDIT_JS = script("audit")


@functools.cache
def axe_source() -> str:
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_version() -> str:
    head = axe_source()[:40]
    return head.split("axe v", 1)[1].split()[0] if "axe v" in head else "?"


@dataclass(slots=True)
class Finding:
    ref: ElementRef
    html: str
    why: str


@dataclass(slots=True)
class Rule:
    id: str
    impact: str
    help: str
    url: str
    count: int
    findings: list[Finding] = field(default_factory=list)


@dataclass(slots=True)
class Audit:
    rules: list[Rule]
    passed: int  # rules that found nothing wrong

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(IMPACTS, 0)
        for rule in self.rules:
            counts[rule.impact] = counts.get(rule.impact, 0) + rule.count
        return counts


async def run_audit(
    cdp: CdpKeeper, tab: Tab, scope: ElementHandle | None, tags: list[str], limit_ms: float
) -> Audit:
    """axe-core's violations on the page (or inside `scope`), each shown element with its ref.

    axe takes seconds on a big page (8 s for 2,000 failing images here) and more than linearly
    more on a bigger one: past `limit_ms` the audit gives up and says how to narrow it.
    """
    page = tab.page
    try:
        result = await _within(cdp, tab, _axe_run(tab, scope, tags), limit_ms)
    except TimeoutError as exc:
        raise ActionTimeout(
            f"axe-core did not finish in {limit_ms / 1000:g} s on {page.url}: a large page is slow to audit",
            "audit a part of it (`browse audit SEL`), fewer rules (--tags), or allow longer (--timeout MS)",
        ) from exc
    except PlaywrightError as exc:
        raise _refused(exc) from exc
    try:
        return await _read(tab, result, limit_ms)
    finally:
        await result.dispose()


async def _axe_run(tab: Tab, scope: ElementHandle | None, tags: list[str]) -> JSHandle:
    await tab.page.evaluate(axe_source())
    return await tab.page.evaluate_handle(_AUDIT_JS, [scope, tags, PER_RULE])


async def _within(cdp: CdpKeeper, tab: Tab, step: Coroutine[Any, Any, JSHandle], limit_ms: float) -> JSHandle:
    """`step`'s result, or TimeoutError after `limit_ms`. A run past its time is stopped in the page
    (`Runtime.terminateExecution`): left alone, axe would hold the tab's main thread for minutes."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait([task], timeout=limit_ms / 1000)
    if done:
        return task.result()
    task.add_done_callback(_forget)
    stop = asyncio.ensure_future(_stop(cdp, tab))
    await asyncio.wait([stop], timeout=2)  # a busy page may be slow to attach to: the answer does not wait
    raise TimeoutError


async def _stop(cdp: CdpKeeper, tab: Tab) -> None:
    with suppress(PlaywrightError):
        await (await cdp.session(tab.page)).send("Runtime.terminateExecution")


def _forget(task: asyncio.Task[JSHandle]) -> None:
    """The stopped run's outcome, read so that it is not reported as never retrieved."""
    if not task.cancelled():
        task.exception()


def _refused(exc: PlaywrightError) -> Exception:
    message = exc.message.splitlines()[0] if exc.message else ""
    if "axe is not defined" in message:
        return PageError("the page would not let axe-core run", "this page's scripts redefine or block it")
    return translate(exc, "running axe-core")


async def _read(tab: Tab, result: JSHandle, snapshot_ms: float) -> Audit:
    data: dict[str, Any] = await result.evaluate(
        "r => ({rules: r.rules, passed: r.passed, unknown: r.unknown})"
    )
    if data["unknown"]:
        raise UsageError(
            f"no axe-core rule has the tag {', '.join(data['unknown'])}",
            "use axe's tags: wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa, best-practice, section508",
        )
    elements = await _elements(result)
    refs: list[ElementRef] = [NO_REF] * len(elements)
    if any(e is not None for e in elements):
        table = by_box(await take_snapshot(tab, timeout_ms=snapshot_ms))
        refs = [await ref_of(tab, table, e) if e is not None else NO_REF for e in elements]
    rules = [_rule(raw, refs) for raw in data["rules"]]
    return Audit(rules, int(data["passed"]))


async def _elements(result: JSHandle) -> list[ElementHandle | None]:
    array = await result.get_property("elements")
    props = await array.get_properties()
    out: list[ElementHandle | None] = [None] * len(props)
    for key, value in props.items():
        if key.isdigit():
            out[int(key)] = value.as_element()
    return out


def _rule(raw: dict[str, Any], refs: list[ElementRef]) -> Rule:
    impact = raw["impact"] if raw["impact"] in IMPACTS else "minor"
    rule = Rule(raw["id"], impact, raw["help"], raw["url"], int(raw["count"]))
    rule.findings = [Finding(refs[n["at"]], n["html"], n["why"]) for n in raw["nodes"]]
    return rule
