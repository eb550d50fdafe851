"""`har start` / `har stop`: a session's requests written as a HAR 1.2 file.

Playwright records into a running context (`tracing.start_har`, the same
recorder as `record_har_path`), so no new context is needed: bodies are
embedded, so the file replays on its own with `route --har`. A recording is not
a setting: it ends with the daemon (or a switch of browser), and `status` says
while one runs.
"""

from __future__ import annotations

import time

from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.errors import BrowseError


class HarRecordings:
    def __init__(self, notices: Notices) -> None:
        self.running: dict[str, tuple[str, float]] = {}  # session -> (path, started)
        self.notices = notices

    async def start(self, session: Session, path: str) -> None:
        if session.name in self.running:
            where = self.running[session.name][0]
            raise BrowseError(f"a HAR is already being recorded to {where}", "run `browse har stop` first")
        await session.context.tracing.start_har(path, content="embed", mode="full")
        self.running[session.name] = (path, time.monotonic())

    async def stop(self, session: Session) -> tuple[str, float]:
        if session.name not in self.running:
            raise BrowseError(
                "no HAR is being recorded in this session", "start one with `browse har start PATH`"
            )
        path, started = self.running.pop(session.name)
        await session.context.tracing.stop_har()
        return path, time.monotonic() - started

    async def on_new_session(self, session: Session) -> None:
        """A new context for the session (a switch of browser) ends a recording of the old one."""
        lost = self.running.pop(session.name, None)
        if lost is not None:
            self.notices.add(
                f"the HAR recording to {lost[0]} ended with the switch of browser: nothing written"
            )

    def status_line(self) -> str:
        return "\n".join(
            f"har: session {name} recording to {path}" for name, (path, _) in self.running.items()
        )
