"""Init scripts: the caller's scripts run in every page of a session before the page's own.

A per-session setting (see `sessionsettings.py`) like routes: its value is the
list of scripts as `{"path", "source"}`, the source read when the script was
added (through the file policy), so a restart brings them back without the file.
They are put on the session's browser context (`add_init_script`), so every
document loaded after they were added runs them first, frames included; a
script that throws is the page's error (`browse console --errors`), not the daemon's.
`BROWSE_INIT_SCRIPTS=file,…` adds scripts to every session (read once, at the daemon's start,
under the same file policy; one that cannot be read is left out with a notice).
"""

from __future__ import annotations

import os
from contextlib import suppress
from typing import Any

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.policy import Policy
from refbrowse.daemon.services.sessionsettings import Family, Value
from refbrowse.errors import BrowseError, UsageError

MAX_SCRIPT_BYTES = 1_000_000  # kept in the session's settings file and sent to every new document
ENV = "BROWSE_INIT_SCRIPTS"
Script = dict[str, str]  # {"path", "source"}


def read_script(path: str, real: str) -> Script:
    """The script at the checked path `real`; UsageError naming `path` when it cannot be one."""
    if not os.path.isfile(real):
        raise UsageError(f"no such file: {path}", "give the path of an existing script")
    if os.path.getsize(real) > MAX_SCRIPT_BYTES:
        raise UsageError(f"{path} is over {MAX_SCRIPT_BYTES // 1_000_000} MB", "use a smaller script")
    with open(real, encoding="utf-8", errors="replace") as f:
        return {"path": real, "source": f.read()}


def from_env(policy: Policy, notices: Notices) -> list[Script]:
    scripts = []
    for path in filter(None, (p.strip() for p in os.environ.get(ENV, "").split(","))):
        try:
            scripts.append(read_script(path, policy.input_path(path)))
        except BrowseError as exc:
            notices.add(f"{ENV}: {exc} ({exc.hint}); left out")
    return scripts


class InitScripts(Family):
    key = "initscripts"

    def __init__(self, from_env: list[Script]) -> None:
        self.from_env = from_env
        # session -> (its context, Playwright's disposables of the scripts put on it, to take them back)
        self._added: dict[str, tuple[Any, list[Any]]] = {}

    async def on_context(self, session: Session, value: Value) -> None:
        _, old = self._added.pop(session.name, (None, []))
        for each in old:
            with suppress(PlaywrightError):
                await each.close()
        added = []
        for script in [*self.from_env, *(value or [])]:
            added.append(await session.context.add_init_script(script=script["source"]))
        self._added[session.name] = (session.context, added)

    async def on_new_session(self, session: Session) -> None:
        """After the settings service: the environment's scripts on a context no setting put them on."""
        context, _ = self._added.get(session.name, (None, []))
        if self.from_env and context is not session.context:
            await self.on_context(session, None)

    def describe(self, value: Value) -> str:
        return ", ".join(script["path"] for script in value) + " (added with `initscript add`)"

    def status_line(self) -> str:
        """The environment's scripts, which no session's settings list."""
        if not self.from_env:
            return ""
        return f"init scripts from {ENV} (every session): {', '.join(s['path'] for s in self.from_env)}"
