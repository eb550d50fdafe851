"""Reading the page while an action settles, so that the reading costs the agent no time.

An action waits for its page to go quiet (`settle`: 50 ms or more in which the
daemon only waits), then needs Playwright's snapshot of the page twice over:
for the diff of the interactive view, and, after a navigation, for the next
`snapshot`. Each read started inside that window is kept with the probe's
stamp of the moment it was taken (see `prepared`), and it is used only when
the action's last look finds the same stamp: a page that changed after it was
read is read again afterwards.

Only small pages that `prepared` would keep are read early (one frame, at most
`EARLY_ELEMENTS` elements); the look that decides it (the probe's, which also
installs the probe in a new document) is one round trip inside the window.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import observe
from refbrowse.daemon.page.snapshot import prepared
from refbrowse.daemon.page.snapshot.prepared import KeptReading, Reading
from refbrowse.daemon.page.snapshot.triage import stamped_triage_within
from refbrowse.errors import BrowseError

log = logging.getLogger("refbrowse")
# Pages up to this size are read early. A bigger page's reading takes the page's own thread long
# enough to delay what it does in reaction to the action, and may have to be taken again after.
EARLY_ELEMENTS = 3_000
# Playwright's snapshot of a document that goes away under it (the action navigated) tries again on
# the next document 1 s later. An early read gives up before that: a snapshot taken behind the
# report's back would renumber the refs the report gives, and the report need not wait for it.
EARLY_ARIA_MS = 900


class EarlyReading:
    """At most one read of the page in flight at a time, started whenever settling looks again."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self._task: asyncio.Task[Reading | None] | None = None
        self._taking: str | None = None  # the stamp the read in flight is taken with, once known
        self._stale = False  # the page changed while it was read: no one waits for that read

    def start(self) -> None:
        """Read the page now, unless a read is still under way (its stamp says if it is still good)."""
        if self._task is None or self._task.done():
            self._taking, self._stale = None, False
            self._task = asyncio.ensure_future(trace.timed("early read", self._bounded()))
            spawn(_settled(self._task))  # held until it ends, even if the action stops caring

    async def _bounded(self) -> Reading | None:
        try:
            return await asyncio.wait_for(self._read(), prepared.PREPARE_LIMIT_S)
        except (BrowseError, PlaywrightError, TimeoutError) as exc:
            log.debug("no early reading: %s", exc)
            return None

    async def _read(self) -> Reading | None:
        tab = self.tab
        if len(tab.page.frames) != 1:
            return None
        # Where the probe is in place, one round trip tells the size and triages a page not too big.
        triaged = await trace.timed("read: triage", stamped_triage_within(tab.page, EARLY_ELEMENTS))
        if triaged == "too big":
            return None
        if not isinstance(triaged, str):
            self._taking = triaged[1]
            return await prepared.read(tab, EARLY_ARIA_MS, triaged=triaged)
        # The probe's own look: it installs the probe in a new document, so the stamp is never missing.
        seen = await observe(tab, stamp=True)
        if seen is None or seen[1].elements > EARLY_ELEMENTS or len(tab.page.frames) != 1:
            return None
        return await prepared.read(tab, EARLY_ARIA_MS)

    async def matching(self, stamp: str | None) -> Reading | None:
        """The reading, if the page's stamp now is still the one it was read with."""
        if self._task is None or stamp is None:
            return None
        if not self._task.done() and self._taking not in (None, stamp):
            self._stale = True  # it ends by itself within EARLY_ARIA_MS, with a stamp no look matches
            trace.note("early reading not used: the page changed while it was read")
            return None
        reading = await self._task
        if reading is None or reading.stamp != stamp or reading.page is not self.tab.page:
            trace.note("early reading not used")
            return None
        trace.note("early reading used")
        return reading

    def kept(self, stamp: str | None) -> bool:
        """Whether a read that has ended is still good for the next `snapshot` (kept by `prepared`)."""
        task = self._task
        if task is None or not task.done() or task.cancelled() or stamp is None:
            return False
        reading = task.result()
        return (
            reading is not None
            and reading.stamp == stamp
            and self.tab.memory.of(KeptReading).reading is reading
        )

    def finish_later(self) -> None:
        """A read still in flight ends before the tab's next command (which waits for the tab's lock)."""
        task = self._task
        if task is not None and not task.done() and not self._stale:
            spawn(_finish(self.tab, task))


async def _settled(task: asyncio.Task[Reading | None]) -> None:
    with suppress(asyncio.CancelledError):
        await task


async def _finish(tab: Tab, task: asyncio.Task[Reading | None]) -> None:
    async with tab.lock:
        with suppress(asyncio.CancelledError):
            await task
