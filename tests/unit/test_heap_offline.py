"""The daemon's heap keeping: the collector held during a big build, and idle tidying."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from refbrowse.daemon.core.runtime import heap


def test_the_collector_is_held_inside_and_given_back_after_even_on_an_error() -> None:
    assert gc.isenabled()
    try:
        with heap.paused():
            assert not gc.isenabled()
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()


def test_a_nested_pause_leaves_the_outer_one_in_charge() -> None:
    with heap.paused():
        with heap.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block did not turn it back on under the outer one
    assert gc.isenabled()


def test_tidying_frees_the_cycles_a_pause_left() -> None:
    class Cycle:
        def __init__(self) -> None:
            self.me = self

    with heap.paused():
        for _ in range(1000):
            Cycle()
        # still held here (counting them allocates, which would set off a collection once it is back)
        assert sum(type(obj) is Cycle for obj in gc.get_objects()) == 1000
        heap.tidy()
        assert not any(type(obj) is Cycle for obj in gc.get_objects())


def _tidies(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    busy: bool,
    worked: bool,
    idle_s: float = 0.005,
) -> int:
    """How many times `watch` tidied in 0.3 s, ticking every 20 ms, with a command in flight or not,
    one ended 10 ms before each tick or none since the start, and `idle_s` of quiet asked for."""
    monkeypatch.setattr(heap, "EVERY_S", 0.02)
    monkeypatch.setattr(heap, "IDLE_S", idle_s)
    started = time.monotonic()

    def last_active() -> float:
        return time.monotonic() - 0.01 if worked else started - 1

    async def run() -> None:
        watching = asyncio.create_task(heap.watch(last_active, lambda: busy, told=True))
        await asyncio.sleep(0.3)
        watching.cancel()

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="refbrowse"):
        asyncio.run(run())
    return sum("memwatch: tidied in" in record.getMessage() for record in caplog.records)


def test_the_heap_is_tidied_after_work_once_nothing_is_in_flight_for_a_while(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert _tidies(monkeypatch, caplog, busy=True, worked=True) == 0  # never under a command
    assert _tidies(monkeypatch, caplog, busy=False, worked=False) == 0  # nothing done since: nothing to do
    assert _tidies(monkeypatch, caplog, busy=False, worked=True, idle_s=5) == 0  # a command just ended
    assert _tidies(monkeypatch, caplog, busy=False, worked=True) >= 1
    assert heap.rss_mb() > 1
