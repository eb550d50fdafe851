"""Bounded logs of what pages do: ring buffers, their background flush to disk, the console breaker.

Console messages, network responses and dialogs from every tab land in three
`RingBuffer`s (O(1) append, oldest entries dropped past capacity). `console`,
`network` and `dialog` read them; a `LogFlusher` task appends whatever is new
to `.refbrowse/*.log` off the request path, so no command waits on disk.

Bounding memory is not enough: a page that logs in a tight loop sends every
message through Playwright's pipe and starves the event loop. A `RateBreaker`
per page notices the flood and tells its owner to detach the console listener
(Playwright then stops sending those events), then to re-attach after a pause.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from refbrowse.daemon.core.browser.target import scrub

log = logging.getLogger("refbrowse")

# Entries kept per buffer: with the texts and URLs cut (see `pagereads`), at most ~20 MB each.
# 50,000 held every request of a few thousand commands on real sites: the daemon grew ~30 KB a command.
CAPACITY = 10_000
FLUSH_EVERY_S = 1.0
MAX_LOG_BYTES = 20 * 1024 * 1024  # a log past this is rotated to NAME.1, so a flood cannot fill the disk


class LogEntry(Protocol):
    @property
    def session(self) -> str: ...

    def line(self) -> str: ...


E = TypeVar("E", bound=LogEntry)


def clock(at: float) -> str:
    """Wall-clock time of an entry, to the millisecond."""
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 1000) % 1000:03d}"


@dataclass(frozen=True, slots=True)
class ConsoleEntry:
    at: float
    session: str
    level: str
    text: str
    url: str

    def line(self) -> str:
        return f"[{clock(self.at)}] [{self.level}] {self.text}"


NOT_MODIFIED = "304 not modified"  # the server confirmed the browser's cached copy


@dataclass(frozen=True, slots=True)
class NetworkEntry:
    at: float
    session: str
    method: str
    url: str
    status: str
    ms: int
    size: int | None
    n: int = 0  # its number in the session, for `request N`; 0 for none

    def line(self) -> str:
        if self.status == NOT_MODIFIED:
            size = "cached copy"
        else:
            size = "? bytes" if self.size is None or self.size < 0 else f"{self.size} bytes"
        took = "? ms" if self.ms < 0 else f"{self.ms} ms"
        number = f"#{self.n} " if self.n else ""
        return f"{number}{self.method} {self.url} → {self.status} ({took}, {size})"


@dataclass(frozen=True, slots=True)
class DialogEntry:
    at: float
    session: str
    kind: str
    message: str
    action: str
    url: str

    def line(self) -> str:
        return f"[{clock(self.at)}] {self.kind} {self.message!r} → {self.action} ({self.url})"


class RingBuffer(Generic[E]):
    """The newest `capacity` entries; every entry has a sequence number, counted from 0.

    `--clear` moves a per-session floor instead of deleting, so clearing is
    O(1) and never hides entries from the flusher.
    """

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._entries: deque[E] = deque(maxlen=capacity)
        self.total = 0  # entries ever appended: the next sequence number
        self._floors: dict[str, int] = {}

    def append(self, entry: E) -> None:
        self._entries.append(entry)
        self.total += 1

    def since(self, seq: int) -> list[E]:
        """Entries numbered `seq` and later that are still held."""
        first = self.total - len(self._entries)
        skip = max(0, seq - first)
        return list(itertools.islice(self._entries, skip, None))

    def entries(self, session: str) -> list[E]:
        return [e for e in self.since(self._floors.get(session, 0)) if e.session == session]

    def clear(self, session: str) -> int:
        """Hide the session's entries so far; return how many were visible."""
        cleared = len(self.entries(session))
        self._floors[session] = self.total
        return cleared


class LogFlusher:
    """Appends new entries of each buffer to its file, once a second, in a worker thread."""

    def __init__(self, files: dict[str, RingBuffer[Any]], every_s: float = FLUSH_EVERY_S) -> None:
        self._files = files
        self._flushed = dict.fromkeys(files, 0)
        self._every_s = every_s
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every_s)
            await self.flush()

    async def flush(self) -> None:
        for path, buffer in self._files.items():
            total = buffer.total
            fresh = buffer.since(self._flushed[path])
            self._flushed[path] = total
            if fresh:
                # Files outlive the session: no password, token or key of a URL goes into one.
                text = scrub("".join(f"{entry.session}\t{entry.line()}\n" for entry in fresh))
                await asyncio.to_thread(_append, path, text)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        await self.flush()


def _append(path: str, text: str) -> None:
    try:
        if os.path.exists(path) and os.path.getsize(path) > MAX_LOG_BYTES:
            os.replace(path, path + ".1")
        # Never through a symlink, never blocking on a FIFO someone put there.
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8", errors="replace") as f:
            f.write(text)
    except OSError as exc:
        log.warning("could not write %s: %s", path, exc)


class RateBreaker:
    """Counts one page's console events; past `limit` in `window_s` it trips.

    On a trip it calls `pause()` (detach the listener), and `resume()` after a
    cooldown. The caller logs both, so a reader sees the gap and why. Each
    re-attach lets a burst through (the events already on their way), so a
    page that trips again at once waits twice as long, up to `max_cooldown_s`;
    a page that stays calm for a whole cooldown starts again from `cooldown_s`.
    """

    def __init__(
        self,
        pause: Callable[[], None],
        resume: Callable[[], None],
        limit: int = 200,
        window_s: float = 1.0,
        cooldown_s: float = 5.0,
        max_cooldown_s: float = 120.0,
    ) -> None:
        self._pause, self._resume = pause, resume
        self.limit, self.window_s = limit, window_s
        self.base_cooldown_s, self.max_cooldown_s = cooldown_s, max_cooldown_s
        self.cooldown_s = cooldown_s
        self._window_start = 0.0
        self._count = 0
        self._resumed_at = -1e9
        self.tripped = False
        self.trips = 0
        self.dropped = 0  # events that arrived while tripped, before Playwright stopped sending them

    def allow(self) -> bool:
        """Count one event; False once the breaker has tripped (drop the event)."""
        if self.tripped:
            self.dropped += 1
            return False
        now = time.monotonic()
        if now - self._window_start > self.window_s:
            self._window_start, self._count = now, 0
        self._count += 1
        if self._count <= self.limit:
            return True
        self._trip(now)
        return False

    def _trip(self, now: float) -> None:
        again_soon = now - self._resumed_at < self.cooldown_s
        self.cooldown_s = (
            min(self.cooldown_s * 2, self.max_cooldown_s) if again_soon else self.base_cooldown_s
        )
        self.tripped = True
        self.trips += 1
        self.dropped += 1
        self._pause()
        asyncio.get_running_loop().call_later(self.cooldown_s, self._reset)

    def _reset(self) -> None:
        self.tripped = False
        self._resumed_at = self._window_start = time.monotonic()
        self._count = 0
        self._resume()
