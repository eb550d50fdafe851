"""`har start` / `har stop`: a session's requests written as a HAR 1.2 file.

Playwright records into a running context (`tracing.start_har`, the same
recorder as `record_har_path`), so no new context is needed: bodies are
embedded, so the file replays on its own with `route --har`. A recording is not
a setting: it ends with the daemon (or a switch of browser), and `status` says
while one runs.

Playwright writes into the private state folder; `stop` reads that back and
writes the caller's file (mode 0600, through the path policy's writer: no
symlink followed at the moment of writing) without the secrets typed in the
session and, unless asked, without cookies and Authorization headers
(`recording.redaction`), then deletes the scratch file. A file that cannot be
written there is kept in `.refbrowse/recordings/` instead, and said.

Playwright's driver keeps every entry in memory until the recording stops, so
a recording stops at its limits (`recording.limits`: requests, bytes of
bodies, time); `stop` then writes what it holds and says how many requests
were left out.
"""

from __future__ import annotations

import asyncio
import os
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import BrowserContext, Request, Response
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.runtime import heap
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.policy import open_private
from refbrowse.daemon.services.recording import harstream, redaction
from refbrowse.daemon.services.recording.limits import Limits
from refbrowse.errors import BrowseError, UsageError


@dataclass(frozen=True, slots=True)
class HarWritten:
    path: str
    seconds: float
    entries: int
    left_out: str  # "" or what the limit left out, in words


class HarRecordings:
    def __init__(self, notices: Notices, folder: str) -> None:
        self.running: dict[str, _Har] = {}
        self.notices = notices
        self.folder = folder  # where Playwright writes before the secrets are taken out

    async def start(self, session: Session, path: str, credentials: bool = False) -> None:
        """Record into `path`; `credentials`: keep cookies and Authorization headers in the file."""
        if (old := self.running.get(session.name)) and old.writing and old.writing.done():
            self._forget(session, old)  # written while no one waited, and never asked for again
        if session.name in self.running:
            where = self.running[session.name].path
            raise BrowseError(f"a HAR is already being recorded to {where}", "run `browse har stop` first")
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        scratch = os.path.join(self.folder, f".har-{os.getpid()}-{time.monotonic_ns()}.har")
        await session.context.tracing.start_har(scratch, content="embed", mode="full")
        run = _Har(path, scratch, time.monotonic(), credentials, Limits.from_env(), session.context)
        run.watch(lambda why: self._cut(run, why))
        self.running[session.name] = run

    def _cut(self, run: _Har, why: str) -> None:
        """Stop recording at a limit: the driver writes the scratch file now and lets go of its entries."""
        if run.cut:
            return
        run.cut, run.ended = why, time.monotonic()
        run.ending = asyncio.ensure_future(_end(run.context))
        self.notices.add(
            f"the HAR recording to {run.path} reached its limit of {run.limits.said(why)} and stopped "
            "recording; `browse har stop` writes what it holds"
        )

    async def stop(self, session: Session, secrets: tuple[str, ...]) -> HarWritten:
        """Write the recording to its path without `secrets`.

        The writing goes on if the command is given up (its timeout): the
        driver may take long to let go of a page that keeps requesting, and
        the next `har stop` waits for the same writing rather than lose it.
        """
        run = self.running.get(session.name)
        if run is None:
            raise BrowseError(
                "no HAR is being recorded in this session", "start one with `browse har start PATH`"
            )
        if run.writing is None:
            run.unwatch()
            run.writing = asyncio.ensure_future(self._write(session, run, secrets))
        try:
            written = await asyncio.shield(run.writing)
        except (BrowseError, PlaywrightError, OSError, ValueError):
            self._forget(session, run)  # its failure is said to this caller
            raise
        self._forget(session, run)  # said to this caller: done with it (a cancelled wait keeps it)
        return written

    async def _write(self, session: Session, run: _Har, secrets: tuple[str, ...]) -> HarWritten:
        try:
            await (run.ending or session.context.tracing.stop_har())
            entries = await asyncio.to_thread(_rewrite, run, secrets, self.folder)
        finally:
            _remove(run.scratch)
        return HarWritten(run.path, (run.ended or time.monotonic()) - run.started, entries, run.left_out())

    def _forget(self, session: Session, run: _Har) -> None:
        if self.running.get(session.name) is run:
            del self.running[session.name]

    async def on_new_session(self, session: Session) -> None:
        """A new context for the session (a switch of browser) ends a recording of the old one."""
        lost = self.running.pop(session.name, None)
        if lost is not None:
            lost.unwatch()
            _remove(lost.scratch)
            self.notices.add(
                f"the HAR recording to {lost.path} ended with the switch of browser: nothing written"
            )

    def status_line(self) -> str:
        return "\n".join(
            f"har: session {name} {'writing' if run.writing else 'recording'} to {run.path}"
            + (f" (stopped at its limit of {run.limits.said(run.cut)})" if run.cut else "")
            for name, run in self.running.items()
        )


async def _end(context: BrowserContext) -> None:
    with suppress(PlaywrightError):  # the context closed meanwhile: its scratch file is what there is
        await context.tracing.stop_har()


@dataclass(eq=False)
class _Har:
    path: str  # the caller's file
    scratch: str  # Playwright's, in the private state folder
    started: float
    credentials: bool  # cookies and Authorization headers are kept
    limits: Limits
    context: BrowserContext
    requests: int = 0
    body_bytes: int = 0
    cut: str = ""  # the limit that stopped it: "entries", "bytes" or "seconds"
    ended: float = 0.0
    after_cut: int = 0  # requests the page made once the recording had stopped
    recorded: int = 0  # entries the driver wrote
    written: int = 0  # entries in the file
    ending: asyncio.Future[None] | None = None
    writing: asyncio.Future[HarWritten] | None = None  # `har stop`'s work, kept past its command
    _timer: asyncio.TimerHandle | None = None
    _listeners: list[tuple[str, Any]] = field(default_factory=list)
    _sizing: set[asyncio.Future[None]] = field(default_factory=set)  # bodies being counted as they end

    def watch(self, cut: Any) -> None:
        def on_request(request: Request) -> None:
            if self.cut:
                self.after_cut += 1
                return
            self.requests += 1
            self.body_bytes += len(request.post_data_buffer or b"")
            if self.requests >= self.limits.entries:
                cut("entries")

        def on_response(response: Response) -> None:
            length = response.headers.get("content-length")
            if length is None:  # chunked, or until the connection closes: counted once it has all come
                self._sizing.add(task := asyncio.ensure_future(self._count_when_done(response, cut)))
                task.add_done_callback(self._sizing.discard)
                return
            with suppress(ValueError):
                self.body_bytes += int(length)
            if not self.cut and self.body_bytes >= self.limits.bytes:
                cut("bytes")

        self.context.on("request", on_request)
        self.context.on("response", on_response)
        self._listeners = [("request", on_request), ("response", on_response)]
        self._timer = asyncio.get_running_loop().call_later(self.limits.seconds, cut, "seconds")

    async def _count_when_done(self, response: Response, cut: Any) -> None:
        """A body whose size no header gave: the driver's count of it once it ended (the body is not
        read here: Chromium's network events say how many bytes came)."""
        with suppress(PlaywrightError):  # the page or context went: nothing more to count
            await response.finished()
            sizes = await response.request.sizes()
            self.body_bytes += sizes["responseBodySize"]
            if not self.cut and self.body_bytes >= self.limits.bytes:
                cut("bytes")

    def unwatch(self) -> None:
        for task in self._sizing:
            task.cancel()  # a stream that never ends would keep its response alive
        for event, listener in self._listeners:
            self.context.remove_listener(event, listener)
        if self._timer is not None:
            self._timer.cancel()

    def left_out(self) -> str:
        if not self.cut:
            return ""
        return (
            f"recording stopped at its limit of {self.limits.said(self.cut)}: "
            f"{max(self.requests + self.after_cut, self.recorded) - self.written:,} later requests "
            "were not recorded"
        )


def _rewrite(run: _Har, secrets: tuple[str, ...], folder: str) -> int:
    """Write the scratch file's entries, scrubbed, to the caller's path; how many entries.

    Entry by entry (`harstream`): the daemon holds one entry at a time, not
    the file parsed whole (many times its size, and kept by the allocator).
    """
    try:
        fd, refused = open_private(path := run.path), None
    except (UsageError, OSError) as exc:
        path = os.path.join(folder, f"har-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.har")
        fd, refused = open_private(path), exc
    try:
        with open(run.scratch, encoding="utf-8") as recorded, os.fdopen(fd, "w", encoding="utf-8") as out:
            run.recorded = harstream.copy(
                recorded,
                out,
                lambda entry: _scrubbed_entry(entry, secrets, run.credentials),
                lambda other: redaction.scrubbed(other, secrets),
                run.limits.entries,
            )
    finally:
        heap.tidy()  # the pieces read were freed as they went: hand that memory back now
    run.written = min(run.recorded, run.limits.entries)
    if run.recorded > run.limits.entries:
        run.cut = run.cut or "entries"  # the driver took requests on while it stopped, or before we heard
    if refused is not None:
        message = refused.message if isinstance(refused, UsageError) else str(refused)
        raise UsageError(f"could not write the HAR: {message}", f"it is kept as {path}")
    return run.written


def _scrubbed_entry(entry: Any, secrets: tuple[str, ...], credentials: bool) -> Any:
    if not isinstance(entry, dict):
        return redaction.scrubbed(entry, secrets)
    return redaction.har_entry(entry, secrets, credentials)


def _remove(scratch: str) -> None:
    if os.path.lexists(scratch):
        os.unlink(scratch)
