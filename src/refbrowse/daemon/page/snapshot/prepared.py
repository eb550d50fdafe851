"""Prepared snapshots: the page read once, served while it has not changed.

Every capture keeps what it read from the page (triage and Playwright's ai
snapshot) with the probe's stamp of that moment, read in the same script as
the triage: the document, its mutation count, field values, focus, scroll,
viewport, style sheets and shadow roots. After a navigation, whose report
takes no view, the daemon reads the new page in the background, holding the
tab's lock, while the agent reads the report. `snapshot` first asks the page
for its stamp (one round trip) and serves the kept reading when it matches;
refs are given when it is served, never when it is read, so a ref the agent
holds changes only when it asks for a snapshot.

Pages with frames are not kept (the probe sees the main document only), nor
pages past `huge_page.FULL_SNAPSHOT_ELEMENTS`. A background reading runs to its
end (within `BACKGROUND_LIMIT_S`) even when it is slow: Playwright's snapshot
keeps the page's thread busy until it finishes whether or not we still wait for
it, so giving it up would only make the next `snapshot` read the page a second
time, and let a `goto` find the page it leaves "not answering" and close the tab.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import LOOK_JS, probe_key
from refbrowse.daemon.page.snapshot import huge_page
from refbrowse.daemon.page.snapshot.triage import Triage, stamped_triage
from refbrowse.errors import BrowseError
from refbrowse.registry import COMMANDS

log = logging.getLogger("refbrowse")

PREPARE_LIMIT_S = 3.0  # an early read during settling: the action's answer waits for it
BACKGROUND_LIMIT_S = 10.0  # a reading after the answer: the next command would wait on the page anyway


class KeptReading:
    """A tab's kept reading (in its `TabMemory`): the page as last read, while it has not changed."""

    def __init__(self) -> None:
        self.reading: Reading | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """What one capture read from the page, and the page's stamp at that moment."""

    facts: Triage
    aria: str  # Playwright's ai snapshot (boxes included)
    stamp: str | None  # None: the document had no probe, so the reading cannot be checked later
    page: Page


@dataclass(frozen=True, slots=True)
class Look:
    """The page as `snapshot` finds it: its stamp (None without a probe) and its element count."""

    stamp: str | None
    elements: int


async def read(
    tab: Tab, timeout_ms: float | None = None, triaged: tuple[Triage, str | None] | None = None
) -> Reading:
    """Triage and the ai snapshot of the whole page; kept for the next `snapshot`.

    `timeout_ms` bounds Playwright's snapshot (default: the tab's action timeout). `triaged` is the
    triage and stamp when the caller has just taken them.
    """
    page = tab.page
    try:
        facts, stamp = (
            triaged if triaged is not None else await trace.timed("read: triage", stamped_triage(page))
        )
        kept = served(tab, Look(stamp, 0))
        if kept is not None:
            return kept  # unchanged since the kept reading: Playwright's snapshot would be the same
        aria = await _aria(page, facts, timeout_ms)
    except PlaywrightError as exc:
        raise translate(exc, f"taking a snapshot of {page.url}") from exc
    reading = Reading(facts, aria, stamp, page)
    keep(tab, reading)
    return reading


async def _aria(page: Page, facts: Triage, timeout_ms: float | None) -> str:
    """Playwright's ai snapshot; empty, without asking, for a document with nothing in it."""
    if facts.blank:
        trace.note("read: a blank document")
        return ""
    return await trace.timed(
        "read: ai snapshot", page.aria_snapshot(mode="ai", boxes=True, timeout=timeout_ms)
    )


def keep(tab: Tab, reading: Reading) -> None:
    kept = reading if reading.stamp is not None and len(reading.page.frames) == 1 else None
    tab.memory.of(KeptReading).reading = kept


async def look(tab: Tab) -> Look:
    """One round trip: the page's stamp and element count."""
    try:
        found = await tab.page.evaluate(LOOK_JS, probe_key())
    except PlaywrightError as exc:
        raise translate(exc, f"taking a snapshot of {tab.page.url}") from exc
    stamp = found["stamp"]
    return Look(str(stamp) if stamp is not None else None, int(found["elements"]))


def served(tab: Tab, now: Look) -> Reading | None:
    """The kept reading if the page is still what it read, else None."""
    kept = tab.memory.of(KeptReading).reading
    if kept is None or now.stamp is None or kept.stamp != now.stamp:
        if kept is not None:
            trace.note(f"reading not served: kept {kept.stamp}, now {now.stamp}")
        return None
    if kept.page is not tab.page or len(tab.page.frames) != 1:
        return None
    return kept


def command_started(tab: Tab, command: str) -> None:
    """A command is about to run on `tab`: a pending preparation is no longer wanted,
    and a command that may change the page drops the kept reading."""
    tab.commands += 1
    # A pure read keeps the reading; any other command (`js`, `scroll`, an action…) drops it first,
    # and an action keeps the reading its report took.
    if not (command in COMMANDS and COMMANDS[command].get("pure_read")):
        tab.memory.of(KeptReading).reading = None


def prepare_soon(tab: Tab, elements: int) -> None:
    """Read the page in the background once the running command ends, unless another command comes first."""
    if elements > huge_page.FULL_SNAPSHOT_ELEMENTS or len(tab.page.frames) != 1:
        return
    spawn(_prepare(tab, tab.commands))


async def _prepare(tab: Tab, turn: int) -> None:
    async with tab.lock:
        if tab.commands != turn or tab.page.is_closed():
            return  # another command ran first: it read, or changed, the page
        try:
            limit = BACKGROUND_LIMIT_S
            await asyncio.wait_for(read(tab, limit * 1000), limit + 1)
        except (BrowseError, PlaywrightError, TimeoutError) as exc:
            log.debug("no prepared snapshot: %s", exc)
