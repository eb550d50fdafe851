"""A reading taken while an action settles is not waited for once the page it reads has changed.

The race it covers (a click whose navigation replaces the document between the early read's triage
and Playwright's snapshot, which then tries again on the next document a second later) depends on
the browser's timing, so the decision is tested here on its own: end to end, the report's refs after
a navigating click are covered by the action tests.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from refbrowse.daemon.core.runtime import background
from refbrowse.daemon.page.snapshot.settling_read import EarlyReading


def _reading_in_flight(taking: str | None) -> tuple[EarlyReading, asyncio.Event]:
    early = EarlyReading(SimpleNamespace(page=None))  # type: ignore[arg-type]
    ends = asyncio.Event()

    async def read() -> Any:
        await ends.wait()
        return None

    early._task = asyncio.ensure_future(read())
    early._taking = taking
    return early, ends


def test_a_read_of_a_page_that_changed_is_not_waited_for() -> None:
    async def scenario() -> None:
        early, ends = _reading_in_flight("stamp of the page left behind")
        assert await asyncio.wait_for(early.matching("stamp of the new page"), 1.0) is None
        before = len(background._tasks)
        early.finish_later()  # and the next command does not wait for it either
        assert len(background._tasks) == before
        ends.set()

    asyncio.run(scenario())


def test_a_read_of_the_same_page_is_waited_for() -> None:
    async def scenario() -> None:
        for taking in ("the same stamp", None):  # None: the read has not said what it reads yet
            early, ends = _reading_in_flight(taking)
            waiting = asyncio.ensure_future(early.matching("the same stamp"))
            await asyncio.sleep(0.05)
            assert not waiting.done()
            ends.set()
            assert await waiting is None  # it read nothing (the stub's read), and that was awaited

    asyncio.run(scenario())
