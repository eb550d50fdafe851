"""Every command the daemon ran, as events for the activity page: a ring buffer and its listeners.

Each event has a number that only grows; a page that reconnects says the last
one it saw (`Last-Event-ID`) and gets what came after, as far back as the
buffer reaches.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from dataclasses import asdict, dataclass, replace

HISTORY = 500  # events kept for pages that connect or reconnect later
QUEUE = 1000  # events waiting for one slow page before it is dropped


@dataclass(frozen=True, slots=True)
class Event:
    id: int  # given by `Feed.publish`
    time: float
    client: str  # "cli", "mcp", or the nested command that ran it ("chain")
    session: str
    tab: int  # the tab's number in its session, 0 when there was none
    command: str
    args: tuple[str, ...]
    flags: dict[str, object]
    step_of: str  # the command that ran this one ("chain"), "" for a client's own command
    duration_ms: int
    ok: bool
    exit_code: int
    error: str
    hint: str

    def as_json(self) -> dict[str, object]:
        return asdict(self)


class Feed:
    def __init__(self, history: int = HISTORY) -> None:
        self._events: deque[Event] = deque(maxlen=history)
        self._ids = itertools.count(1)
        self._listeners: set[asyncio.Queue[Event]] = set()

    def publish(self, event: Event) -> Event:
        """Number `event` (its `id` is ignored) and hand it to every listener."""
        event = replace(event, id=next(self._ids))
        self._events.append(event)
        for queue in list(self._listeners):
            if queue.full():
                self._listeners.discard(queue)  # the page stopped reading; it reconnects with its last id
            else:
                queue.put_nowait(event)
        return event

    def since(self, last_id: int) -> list[Event]:
        return [event for event in self._events if event.id > last_id]

    def listen(self) -> asyncio.Queue[Event]:
        queue: asyncio.Queue[Event] = asyncio.Queue(QUEUE)
        self._listeners.add(queue)
        return queue

    def leave(self, queue: asyncio.Queue[Event]) -> None:
        self._listeners.discard(queue)
