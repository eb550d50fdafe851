"""Keeps each session's login state on disk without slowing any command down.

A full `storage_state(indexed_db=True)` costs 180–270 ms, too much after every
command. So a command only marks its session changed; a moment later its cookies
(`context.cookies()`, a few ms) are written along with the origins (local
storage, IndexedDB) of the last full snapshot. Full snapshots are taken every
`FULL_EVERY_S` for changed sessions and at shutdown. A daemon killed with
SIGKILL loses at most the last `COOKIE_DELAY_S`; a daemon whose Chromium died
keeps the last good file, because a failed snapshot never overwrites it.

What a site stores beyond the budgets of `budget` is left out, at save and at
restore, with a note for the next command and in `status`: a site's offline
cache must never make the next start time out. IndexedDB that takes longer
than `IDB_READ_S` to read is left out of the saves for a while.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.state import opentabs
from refbrowse.daemon.services.state.budget import indexeddb_over_budget, within_budget
from refbrowse.daemon.services.state.files import (
    State,
    StateFileError,
    check_state,
    read_state,
    remove,
    remove_leftovers,
    session_file,
    set_aside,
    write_state,
)
from refbrowse.registry import COMMANDS

log = logging.getLogger("refbrowse")

COOKIE_DELAY_S = 0.3
FULL_EVERY_S = 30.0
SAVE_TIMEOUT_S = 10.0
IDB_READ_S = 5.0  # a full snapshot's IndexedDB must be read in this time, else it is left out
IDB_SIZE_S = 2.0  # …and its size known in this time, else it is left out of this save
IDB_RETRY_S = 600.0  # how long IndexedDB too slow to read stays left out of the saves


@dataclass
class SessionRecord:
    """What the persister knows of one session's saved state."""

    origins: list[Any] = field(default_factory=list)  # the storage of the last full save or restore
    changes: int = 0  # bumped per command that may have changed the state
    saved: int = 0  # the change count the file on disk reflects
    full_due: bool = False  # a full save (storage, not only cookies) is owed
    timer: asyncio.Task[None] | None = None  # the cookie save soon after a change
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one save at a time
    left_out: list[str] = field(default_factory=list)  # what the budgets kept out, said in `status`
    idb_slow_until: float = 0.0  # IndexedDB too slow to read stays out of full saves until then


class Persister:
    def __init__(self, state_dir: str, host: BrowserHost, notices: Notices, enabled: bool = True) -> None:
        self.state_dir = state_dir
        self.host = host
        self.enabled = enabled
        self._sessions: dict[str, SessionRecord] = {}
        self._periodic: asyncio.Task[None] | None = None
        self._last_save: tuple[float, str] | None = None
        self._last_error = ""
        self.notices = notices  # one-line warnings for the next command's caller
        self._started: set[str] = set()  # sessions this daemon has opened: their tabs are its own
        remove_leftovers(state_dir)

    # restore

    async def context_options(self, session: str) -> dict[str, Any]:
        """`new_context` arguments that bring a session's saved state back."""
        if session not in self._started:
            self._started.add(session)
            lost = await asyncio.to_thread(opentabs.take_lost, opentabs.tabs_file(self.state_dir, session))
            if lost:
                self.notices.add(opentabs.lost_note(session, lost))
        path = session_file(self.state_dir, session)
        if not os.path.lexists(path):
            return {}
        try:
            state, left_out = await asyncio.to_thread(_read_within_budget, path)
        except StateFileError as exc:
            self._set_aside(path, session, f"unreadable ({exc})")
            return {}
        self._of(session).origins = state["origins"]
        self._note_left_out(session, left_out, "restored without")
        log.info("session %s: restoring %d cookies, %d origins", session, *_counts(state))
        return {"storage_state": state}

    def saved_at(self, session: str) -> float:
        """When the session's state file was last written; 0 if it has none."""
        try:
            return os.stat(session_file(self.state_dir, session), follow_symlinks=False).st_mtime
        except OSError:
            return 0.0

    def on_state_refused(self, session: str, why: str) -> None:
        """The browser would not take the session's saved state back (or not in time)."""
        record = self._of(session)
        record.origins, record.left_out = [], []
        path = session_file(self.state_dir, session)
        if os.path.lexists(path):
            self._set_aside(path, session, why)

    def _set_aside(self, path: str, session: str, why: str) -> None:
        try:
            aside = set_aside(path)
        except OSError as exc:
            aside = f"(could not move it: {exc})"
        notice = f"session {session}: saved state {why}; started clean; kept as {aside}"
        log.warning("bad state file: %s", notice)
        self.notices.add(notice)

    # changes

    def after_command(self, command: str, session: Session | None) -> None:
        """A command may have changed the session's state (the `state` command says so itself)."""
        spec = COMMANDS.get(command)
        if spec is None or spec["cat"] == "meta" or spec.get("saves_state_itself"):
            return
        if self.enabled and session is not None:
            self.changed(session)

    def changed(self, session: Session) -> None:
        record = self._of(session.name)
        record.changes += 1
        record.full_due = True
        if self._periodic is None:
            self._periodic = asyncio.create_task(self._full_saves())
        if record.timer is None or record.timer.done():
            record.timer = asyncio.create_task(self._save_soon(session))

    def loaded(self, session: Session, state: State) -> None:
        """A state was set on the session by hand: what the next saves must carry."""
        self._of(session.name).origins = list(state.get("origins", []))
        self.changed(session)

    async def forget(self, session: Session) -> bool:
        """Stop saving what the session had and delete its file; True if there was one."""
        record = self._of(session.name)
        if record.timer is not None:
            record.timer.cancel()
            record.timer = None
        async with record.lock:
            record.saved, record.full_due, record.origins = record.changes, False, []
            opentabs.remove_quietly(opentabs.tabs_file(self.state_dir, session.name))
            return remove(session_file(self.state_dir, session.name))

    async def _save_soon(self, session: Session) -> None:
        await asyncio.sleep(COOKIE_DELAY_S)
        record = self._of(session.name)
        while record.saved < record.changes:
            target = record.changes
            await self.save(session, full=False)
            record.saved = max(record.saved, target)

    async def _full_saves(self) -> None:
        while True:
            await asyncio.sleep(FULL_EVERY_S)
            await self._save_due()

    async def _save_due(self) -> None:
        for name in sorted(n for n, record in self._sessions.items() if record.full_due):
            self._sessions[name].full_due = False
            session = self.host.sessions.get(name)
            if session is not None:
                await self.save(session, full=True)

    async def on_shutdown(self) -> None:
        """Take a last full snapshot of every changed session before the browser closes."""
        for task in [self._periodic, *(record.timer for record in self._sessions.values())]:
            if task is not None:
                task.cancel()
        await self._save_due()
        opentabs.remove_all(self.state_dir)

    # saving

    async def save(self, session: Session, full: bool) -> bool:
        """Write the session's state; on any failure keep the previous file and say why."""
        async with self._of(session.name).lock:
            started = time.perf_counter()
            try:
                state = await asyncio.wait_for(self._snapshot(session, full), SAVE_TIMEOUT_S)
                await asyncio.to_thread(write_state, session_file(self.state_dir, session.name), state)
                urls = [tab.page.url for tab in session.tabs if not tab.page.is_closed()]
                await asyncio.to_thread(
                    opentabs.write_tabs, opentabs.tabs_file(self.state_dir, session.name), urls
                )
            except (PlaywrightError, OSError, TimeoutError, StateFileError) as exc:
                self._last_error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                log.warning("session %s: state not saved: %s", session.name, self._last_error)
                return False
        took_ms = (time.perf_counter() - started) * 1000
        self._last_save = (time.time(), f"{'full' if full else 'cookies'}, {took_ms:.0f} ms")
        self._last_error = ""
        return True

    async def _snapshot(self, session: Session, full: bool) -> State:
        if full:
            whole, slow = await self._full_state(session)
            state, left_out = await asyncio.to_thread(_cut_to_budget, whole)
            self._note_left_out(session.name, slow + left_out, "saved without")
            self._of(session.name).origins = state["origins"]
            return state
        cookies = await session.context.cookies()
        return check_state({"cookies": cookies, "origins": self._of(session.name).origins})

    async def _full_state(self, session: Session) -> tuple[State, list[str]]:
        """Cookies and storage, IndexedDB too unless it is too big or too slow to read (then
        the IndexedDB of the last full save is kept, with notes saying why)."""
        record, context = self._of(session.name), session.context
        known = [origin["origin"] for origin in record.origins]
        try:  # a tab whose navigation hangs keeps its DevTools session from opening
            notes = await asyncio.wait_for(indexeddb_over_budget(session, known), IDB_SIZE_S)
        except TimeoutError:
            notes = [f"new IndexedDB (its size could not be read in {IDB_SIZE_S:.0f} s)"]
        if not notes and time.monotonic() >= record.idb_slow_until:
            try:
                read = context.storage_state(indexed_db=True)
                return check_state(await asyncio.wait_for(read, IDB_READ_S)), []
            except TimeoutError:
                record.idb_slow_until = time.monotonic() + IDB_RETRY_S
        if not notes:
            notes = [f"new IndexedDB (reading it took over {IDB_READ_S:.0f} s)"]
        state = check_state(await context.storage_state())
        return _with_indexeddb(state, record.origins), notes

    def _note_left_out(self, session: str, notes: list[str], done: str) -> None:
        """Say once what the budgets kept out of a session's state; `status` keeps saying it."""
        record = self._of(session)
        new = [note for note in notes if note not in record.left_out]
        record.left_out = notes
        if new:
            message = f"session {session}: login state {done} {'; '.join(new)}"
            log.warning("%s", message)
            self.notices.add(message)

    def _of(self, session: str) -> SessionRecord:
        found = self._sessions.get(session)
        if found is None:
            found = self._sessions[session] = SessionRecord()
        return found

    # status

    def status_line(self) -> str:
        if not self.enabled:
            return "state: not persisted (BROWSE_PERSIST=0)"
        pending = any(record.saved < record.changes for record in self._sessions.values())
        if self._last_save is None:
            said = "nothing saved yet"
        else:
            when, kind = self._last_save
            said = f"saved {time.time() - when:.1f}s ago ({kind}) to {os.path.join(self.state_dir, 'state')}"
        error = f"; last save failed: {self._last_error}" if self._last_error else ""
        left_out = "".join(
            f"; {name} left out {'; '.join(record.left_out)}"
            for name, record in self._sessions.items()
            if record.left_out
        )
        return f"state: {said}; {'changes pending' if pending else 'up to date'}{error}{left_out}"


def _read_within_budget(path: str) -> tuple[State, list[str]]:
    return _cut_to_budget(read_state(path))


def _cut_to_budget(state: State) -> tuple[State, list[str]]:
    """The state with what is over the budgets left out, and notes saying what."""
    origins, notes = within_budget(state["origins"])
    return {**state, "origins": origins}, notes


def _with_indexeddb(state: State, known: list[Any]) -> State:
    """`state` (read without IndexedDB) carrying the IndexedDB kept from the last full save."""
    kept = {o["origin"]: o.get("indexedDB") for o in known if o.get("indexedDB")}
    origins = [{**o, "indexedDB": kept.pop(o["origin"], [])} for o in state["origins"]]
    origins += [{"origin": origin, "localStorage": [], "indexedDB": idb} for origin, idb in kept.items()]
    return {**state, "origins": origins}


def _counts(state: State) -> tuple[int, int]:
    return len(state.get("cookies", [])), len(state.get("origins", []))
