"""Which recordings each session has running, for the recording commands, `status` and shutdown."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.services.recording.profile import ProfileRun
from refbrowse.daemon.services.recording.script import ScriptRun
from refbrowse.daemon.services.recording.tracerun import TraceRun
from refbrowse.daemon.services.recording.video import VideoRun
from refbrowse.errors import BrowseError
from refbrowse.specs import Result

log = logging.getLogger("refbrowse")


@dataclass
class SessionRecordings:
    """A session's running recordings: at most one of each kind."""

    trace: TraceRun | None = None
    profile: ProfileRun | None = None
    video: VideoRun | None = None
    script: ScriptRun | None = None

    def running(self) -> list[str]:
        kinds = [
            ("trace", self.trace),
            ("profile", self.profile),
            ("video", self.video),
            ("record", self.script),
        ]
        said = [name for name, run in kinds if run is not None]
        if self.trace is not None and self.trace.cut:
            said[0] += f" (stopped at its limit of {self.trace.limits.said(self.trace.cut)})"
        return said


class Recordings:
    """Every session's recordings, by session name."""

    def __init__(self, host: BrowserHost) -> None:
        self.host = host
        self._by_session: dict[str, SessionRecordings] = {}

    def of(self, session: str) -> SessionRecordings:
        return self._by_session.setdefault(session, SessionRecordings())

    async def record(self, request: CheckedRequest, result: Result, started: float, parent: str) -> None:
        """After each command: a session that records a script adds the command to it."""
        name = request.session
        script = self._by_session[name].script if name in self._by_session else None
        if script is None or not result["ok"]:
            return
        session = self.host.sessions.get(name)
        try:
            await script.note(request, result["output"], session.current if session else None)
        except (BrowseError, PlaywrightError) as exc:
            log.info("record: %s was not recorded: %s", request.command, exc)

    def status_line(self) -> str:
        parts = [
            f"{name}: {', '.join(rec.running())}" for name, rec in self._by_session.items() if rec.running()
        ]
        return f"recording: {'; '.join(parts)}" if parts else ""

    async def on_shutdown(self) -> None:
        """At shutdown: what was recorded but not stopped is dropped (nobody asked for its file)."""
        for rec in self._by_session.values():
            if rec.trace is not None:
                rec.trace.discard()
            if rec.video is not None:
                rec.video.discard()
            if rec.profile is not None:
                await rec.profile.discard()
        self._by_session.clear()


def since(started: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(started))
