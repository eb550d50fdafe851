"""Console, network and dialog capture from every tab, the log files, and the console breaker."""

from __future__ import annotations

import asyncio
from pathlib import Path

from refbrowse.daemon.core.runtime.logbuffer import ConsoleEntry, LogFlusher, RateBreaker, RingBuffer


def entry(n: int, session: str = "s") -> ConsoleEntry:
    return ConsoleEntry(0.0, session, "log", f"m{n}", "")


def test_ring_buffer_keeps_the_newest_entries_only() -> None:
    buffer: RingBuffer[ConsoleEntry] = RingBuffer(capacity=3)
    for n in range(5):
        buffer.append(entry(n))
    assert [e.text for e in buffer.entries("s")] == ["m2", "m3", "m4"]
    assert [e.text for e in buffer.since(4)] == ["m4"]
    assert buffer.total == 5


def test_clearing_hides_old_entries_from_its_session_only() -> None:
    buffer: RingBuffer[ConsoleEntry] = RingBuffer()
    buffer.append(entry(1, "a"))
    buffer.append(entry(2, "b"))
    assert buffer.clear("a") == 1
    buffer.append(entry(3, "a"))
    assert [e.text for e in buffer.entries("a")] == ["m3"]
    assert [e.text for e in buffer.entries("b")] == ["m2"]
    assert len(buffer.since(0)) == 3  # the flusher still sees everything


def test_flusher_appends_only_what_is_new(tmp_path: Path) -> None:
    buffer: RingBuffer[ConsoleEntry] = RingBuffer(capacity=2)
    path = tmp_path / "console.log"
    flusher = LogFlusher({str(path): buffer})

    async def run() -> None:
        buffer.append(entry(1))
        await flusher.flush()
        await flusher.flush()
        for n in range(2, 6):  # more than the buffer holds between two flushes: the oldest are gone
            buffer.append(entry(n))
        await flusher.flush()

    asyncio.run(run())
    assert [line.rsplit(" ", 1)[1] for line in path.read_text().splitlines()] == ["m1", "m4", "m5"]


def test_breaker_trips_past_its_limit_and_resets_after_the_cooldown() -> None:
    calls: list[str] = []

    async def flood() -> list[bool]:
        breaker = RateBreaker(
            lambda: calls.append("pause"), lambda: calls.append("resume"), limit=3, cooldown_s=0.01
        )
        allowed = [breaker.allow() for _ in range(5)]
        await asyncio.sleep(0.05)
        return [*allowed, breaker.allow()]

    assert asyncio.run(flood()) == [True, True, True, False, False, True]
    assert calls == ["pause", "resume"]
