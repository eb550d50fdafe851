"""One tab of a session: its page, the lock that keeps its commands in order, its refs and its memory.

`TabMemory` is where every layer keeps what it remembers of a tab (the page as
last read, the view the next action diffs against, an action in flight), one
record per kind, made on first use and gone with the tab: no layer sets
attributes on a `Tab` or keeps a module-level map keyed by tabs.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import TypeVar

from playwright.async_api import Page, WebSocket

from refbrowse.daemon.core.sessions.refs import RefMap

T = TypeVar("T")


class TabMemory:
    """What the layers above remember of one tab, by kind: `memory.of(ViewKept)`.

    A kind is a class whose constructor takes no arguments; its one instance for
    the tab is made on first use.
    """

    def __init__(self) -> None:
        self._records: dict[type, object] = {}

    def of(self, kind: type[T]) -> T:
        found = self._records.get(kind)
        if found is None:
            found = self._records[kind] = kind()
        assert isinstance(found, kind)
        return found

    def peek(self, kind: type[T]) -> T | None:
        """The tab's record of `kind` if one was made, without making one."""
        found = self._records.get(kind)
        return found if isinstance(found, kind) else None


@dataclass(frozen=True, slots=True)
class Holder:
    """The command that holds a tab's lock, for the one that waits: what it is and how long it may run."""

    command: str  # `goto URL`
    since: float  # the event loop's time when it took the tab
    until: float | None  # the loop's time by which the daemon gives up on it (None: no bound of its own)


class Tab:
    """One page of a session, with the lock that keeps its commands in order."""

    _ids = itertools.count(1)

    def __init__(self, page: Page) -> None:
        self.page = page
        self.id = next(self._ids)
        self.lock = asyncio.Lock()
        self.busy: Holder | None = None  # the command that holds the lock, for the one that waits
        self.refs = RefMap()
        self.memory = TabMemory()
        self.commands = 0  # commands started on this tab: a background read waits for none to come first
        self.opened_blank = False  # opened by the daemon itself (not by a page), at about:blank
        self.sockets: list[WebSocket] = []  # the page's open WebSockets: an action awaits their answers
        page.on("websocket", self._socket_opened)

    @property
    def pristine(self) -> bool:
        """Still the blank page the daemon opened, with no command but the running one ever run on
        it: nothing there can be busy, show a message or be left behind by a navigation."""
        return self.opened_blank and self.commands <= 1 and self.page.url == "about:blank"

    def _socket_opened(self, socket: WebSocket) -> None:
        self.sockets.append(socket)
        socket.on("close", lambda _: self._socket_closed(socket))

    def _socket_closed(self, socket: WebSocket) -> None:
        if socket in self.sockets:
            self.sockets.remove(socket)
