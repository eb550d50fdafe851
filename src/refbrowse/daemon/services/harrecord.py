"""`har start` / `har stop`: a session's requests written as a HAR 1.2 file.

Playwright records into a running context (`tracing.start_har`, the same
recorder as `record_har_path`), so no new context is needed: bodies are
embedded, so the file replays on its own with `route --har`. A recording is not
a setting: it ends with the daemon (or a switch of browser), and `status` says
while one runs.

Playwright writes into the private state folder; `stop` reads that back and
writes the caller's file (mode 0600) without the secrets typed in the session
and, unless asked, without cookies and Authorization headers
(`recording.redaction`), then deletes the scratch file.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass

from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.policy import write_private
from refbrowse.daemon.services.recording import redaction
from refbrowse.errors import BrowseError


class HarRecordings:
    def __init__(self, notices: Notices, folder: str) -> None:
        self.running: dict[str, _Har] = {}
        self.notices = notices
        self.folder = folder  # where Playwright writes before the secrets are taken out

    async def start(self, session: Session, path: str, credentials: bool = False) -> None:
        """Record into `path`; `credentials`: keep cookies and Authorization headers in the file."""
        if session.name in self.running:
            where = self.running[session.name].path
            raise BrowseError(f"a HAR is already being recorded to {where}", "run `browse har stop` first")
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        scratch = os.path.join(self.folder, f".har-{os.getpid()}-{time.monotonic_ns()}.har")
        await session.context.tracing.start_har(scratch, content="embed", mode="full")
        self.running[session.name] = _Har(path, scratch, time.monotonic(), credentials)

    async def stop(self, session: Session, secrets: tuple[str, ...]) -> tuple[str, float]:
        """Write the recording to its path without `secrets`; the path and how long it recorded."""
        if session.name not in self.running:
            raise BrowseError(
                "no HAR is being recorded in this session", "start one with `browse har start PATH`"
            )
        run = self.running.pop(session.name)
        try:
            await session.context.tracing.stop_har()
            await asyncio.to_thread(_rewrite, run, secrets)
        finally:
            _remove(run.scratch)
        return run.path, time.monotonic() - run.started

    async def on_new_session(self, session: Session) -> None:
        """A new context for the session (a switch of browser) ends a recording of the old one."""
        lost = self.running.pop(session.name, None)
        if lost is not None:
            _remove(lost.scratch)
            self.notices.add(
                f"the HAR recording to {lost.path} ended with the switch of browser: nothing written"
            )

    def status_line(self) -> str:
        return "\n".join(f"har: session {name} recording to {run.path}" for name, run in self.running.items())


@dataclass(frozen=True, slots=True)
class _Har:
    path: str  # the caller's file
    scratch: str  # Playwright's, in the private state folder
    started: float
    credentials: bool  # cookies and Authorization headers are kept


def _rewrite(run: _Har, secrets: tuple[str, ...]) -> None:
    with open(run.scratch, "rb") as recorded:
        write_private(run.path, redaction.har(recorded.read(), secrets, run.credentials))


def _remove(scratch: str) -> None:
    if os.path.lexists(scratch):
        os.unlink(scratch)
