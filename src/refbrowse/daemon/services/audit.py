"""The accessibility audit behind `audit`: axe-core run in the page, its findings given refs.

axe-core is a dependency, not copied code: the build `axe-playwright-python`
ships (`axe.min.js`) is read from that package and defined in the page before
each run, in the page and in each of its frames (`auditframes.py`). Violations come
back grouped by rule over all of them, worst impact first; the first
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

from playwright.async_api import CDPSession, ElementHandle, Frame, JSHandle
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.elementrefs import NO_REF, ElementRef, by_box, ref_of
from refbrowse.daemon.page.snapshot.service import take_snapshot
from refbrowse.daemon.services.auditframes import Frames, Part, dispose, frame_parts, place_frames
from refbrowse.errors import ActionTimeout, PageError, UsageError

PER_RULE = 5  # elements shown (and given refs) per violated rule
IMPACTS = ("critical", "serious", "moderate", "minor")
_AUDIT_JS = script("audit")
_FIELDS_JS = "r => ({rules: r.rules, passed: r.passed, unknown: r.unknown})"


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
    frame: str = ""  # the URL of the frame it is in; "" on the page itself


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
    frames: int = 0  # frames audited besides the page
    left_out: int = 0  # frames not audited: past `auditframes.MAX_FRAMES`
    skipped: list[str] = field(default_factory=list)  # frames axe could not run in: "URL: why"

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(IMPACTS, 0)
        for rule in self.rules:
            counts[rule.impact] = counts.get(rule.impact, 0) + rule.count
        return counts


async def run_audit(
    cdp: CdpKeeper, tab: Tab, scope: ElementHandle | None, tags: list[str], limit_ms: float
) -> Audit:
    """axe-core's violations on the page (or inside `scope`) and in its frames, each shown element
    with its ref.

    axe takes seconds on a big page (8 s for 2,000 failing images here) and more than linearly
    more on a bigger one: past `limit_ms` the audit gives up and says how to narrow it.
    """
    page = tab.page
    deadline = asyncio.get_running_loop().time() + limit_ms / 1000
    frames = await frame_parts(page, scope)
    try:
        for part in frames.parts:
            left_ms = (deadline - asyncio.get_running_loop().time()) * 1000
            run = _axe_run(part, scope if part.context is None else None, tags)
            own = await _own_session(tab, part.frame) if part.context is not None else None
            try:
                part.result = await _within(cdp, tab, own, run, max(left_ms, 1))
            except PlaywrightError as exc:
                if part.context is None:
                    raise _refused(exc) from exc
                frames.skipped.append(f"{part.url}: {exc.message.splitlines()[0] if exc.message else exc}")
            finally:
                if own is not None:
                    await _detach(own)
        return await _read(tab, frames, limit_ms)
    except TimeoutError as exc:
        raise ActionTimeout(
            f"axe-core did not finish in {limit_ms / 1000:g} s on {page.url}: a large page is slow to audit",
            "audit a part of it (`browse audit SEL`), fewer rules (--tags), or allow longer (--timeout MS)",
        ) from exc
    finally:
        await dispose(frames.parts)


async def _axe_run(part: Part, scope: ElementHandle | None, tags: list[str]) -> JSHandle:
    await part.frame.evaluate(axe_source())
    return await part.frame.evaluate_handle(_AUDIT_JS, [scope, tags, PER_RULE, part.context])


async def _within(
    cdp: CdpKeeper, tab: Tab, own: CDPSession | None, step: Coroutine[Any, Any, JSHandle], limit_ms: float
) -> JSHandle:
    """`step`'s result, or TimeoutError after `limit_ms`. A run past its time is stopped in the page
    (`Runtime.terminateExecution`): left alone, axe would hold the tab's main thread for minutes.
    `own`: the DevTools session of a frame in a process of its own, where its run is stopped."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait([task], timeout=limit_ms / 1000)
    if done:
        return task.result()
    task.add_done_callback(_forget)
    stop = asyncio.ensure_future(_stop(cdp, tab, own))
    await asyncio.wait([stop], timeout=2)  # a busy page may be slow to attach to: the answer does not wait
    raise TimeoutError


async def _stop(cdp: CdpKeeper, tab: Tab, own: CDPSession | None) -> None:
    with suppress(PlaywrightError):
        await (own or await cdp.session(tab.page)).send("Runtime.terminateExecution")


async def _own_session(tab: Tab, frame: Frame) -> CDPSession | None:
    """A cross-site frame's own DevTools session, attached while its process is idle (a busy one
    would not answer the attach); None for a frame in the page's process, stopped with the page."""
    try:
        return await tab.page.context.new_cdp_session(frame)
    except PlaywrightError:
        return None


async def _detach(own: CDPSession) -> None:
    with suppress(PlaywrightError, TimeoutError):
        await asyncio.wait_for(own.detach(), 2)


def _forget(task: asyncio.Task[JSHandle]) -> None:
    """The stopped run's outcome, read so that it is not reported as never retrieved."""
    if not task.cancelled():
        task.exception()


def _refused(exc: PlaywrightError) -> Exception:
    message = exc.message.splitlines()[0] if exc.message else ""
    if "axe is not defined" in message:
        return PageError("the page would not let axe-core run", "this page's scripts redefine or block it")
    return translate(exc, "running axe-core")


async def _read(tab: Tab, frames: Frames, snapshot_ms: float) -> Audit:
    parts = [part for part in frames.parts if part.result is not None]
    data: list[dict[str, Any]] = []
    for part in parts:
        assert part.result is not None
        data.append(await part.result.evaluate(_FIELDS_JS))
        part.elements = await _elements(part.result)
    if data[0]["unknown"]:
        raise UsageError(
            f"no axe-core rule has the tag {', '.join(data[0]['unknown'])}",
            "use axe's tags: wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa, best-practice, section508",
        )
    refs = await _refs(tab, parts, snapshot_ms)
    rules: dict[str, Rule] = {}
    for part, found, part_refs in zip(parts, data, refs, strict=True):
        for raw in found["rules"]:
            _merge(rules, raw, part_refs, part.url)
    passed = set().union(*(found["passed"] for found in data)) - set(rules)
    ordered = sorted(rules.values(), key=lambda r: (IMPACTS.index(r.impact), -r.count))
    return Audit(ordered, len(passed), len(parts) - 1, frames.left_out, frames.skipped)


async def _refs(tab: Tab, parts: list[Part], snapshot_ms: float) -> list[list[ElementRef]]:
    """Each part's elements' refs, from one whole-page snapshot (none taken when nothing failed)."""
    if not any(e is not None for part in parts for e in part.elements):
        return [[NO_REF] * len(part.elements) for part in parts]
    table = by_box(await take_snapshot(tab, timeout_ms=snapshot_ms))
    await place_frames(tab, table, parts)
    out = []
    for part in parts:
        framed = part.context is not None
        refs = []
        for element in part.elements:
            ref = NO_REF
            if element is not None and (part.origin is not None or not framed):
                ref = await ref_of(tab, table, element, part.origin)
            refs.append(ref if ref.ref or not framed else part.holder)
        out.append(refs)
    return out


def _merge(rules: dict[str, Rule], raw: dict[str, Any], refs: list[ElementRef], frame: str) -> None:
    """A rule's findings in one document added to the same rule's in the others."""
    impact = raw["impact"] if raw["impact"] in IMPACTS else "minor"
    rule = rules.setdefault(raw["id"], Rule(raw["id"], impact, raw["help"], raw["url"], 0))
    if IMPACTS.index(impact) < IMPACTS.index(rule.impact):
        rule.impact = impact
    rule.count += int(raw["count"])
    room = PER_RULE - len(rule.findings)
    rule.findings += [Finding(refs[n["at"]], n["html"], n["why"], frame) for n in raw["nodes"][:room]]


async def _elements(result: JSHandle) -> list[ElementHandle | None]:
    array = await result.get_property("elements")
    props = await array.get_properties()
    out: list[ElementHandle | None] = [None] * len(props)
    for key, value in props.items():
        if key.isdigit():
            out[int(key)] = value.as_element()
    return out
