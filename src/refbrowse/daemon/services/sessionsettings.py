"""Per-session settings: what commands set on a session's browser context, kept with the session.

Routes, extra headers, offline, throttling, emulation and permissions live with
a session like its logins. Each kind is a `Family`: it knows how to put its value
(plain JSON) on a browser context and on one page, how to say it in one line, and
what an action's report should add. This service holds the values, applies them
to every new tab and to a context that replaces the session's (a switch of
browser), saves them next to the session's login state (`state/settings-*.json`,
mode 0600: header values may be secrets) and brings them back after a restart,
when the session opens. `status` gives one line per active family, and says which
came back from a restart. New families register with `add`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import weakref
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.services.state.files import StateFileError, session_file, set_aside, write_state
from refbrowse.errors import BrowseError
from refbrowse.protocol import read_regular

log = logging.getLogger("refbrowse")

Value = Any  # a family's setting, as JSON-able data; None means cleared


class Family:
    """One kind of per-session setting. Subclasses override what they need."""

    key = ""  # its name in the saved file and in `status`

    async def on_context(self, session: Session, value: Value) -> None:
        """Put `value` (None: nothing) on the session's context."""

    async def on_page(self, session: Session, page: Page, value: Value) -> None:
        """Put `value` (None: nothing) on one page of the session."""

    def describe(self, value: Value) -> str:
        """`value` in a few words for `status`; secrets left out."""
        return str(value)

    def mark(self, session: Session) -> int:
        """Where the family's record of events stands before an action (see `report`)."""
        return 0

    def report(self, session: Session, since: int, page_url: str) -> list[str]:
        """Lines for the report of an action that ran since `mark` said `since`."""
        return []


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("settings not applied to a new tab", exc_info=task.exception())


def _put(values: dict[str, Value], key: str, value: Value) -> None:
    if value is None:
        values.pop(key, None)
    else:
        values[key] = value


class SessionSettings:
    def __init__(self, state_dir: str, notices: Notices, persist: bool = True) -> None:
        self.state_dir = state_dir
        self.persist = persist
        self.families: dict[str, Family] = {}
        self._values: dict[str, dict[str, Value]] = {}  # session -> family key -> value
        self._restored: dict[str, set[str]] = {}  # session -> families that came back from disk
        self._pending: weakref.WeakKeyDictionary[Page, asyncio.Task[None]] = weakref.WeakKeyDictionary()
        self.notices = notices  # one-line warnings for the next command's caller
        if persist:
            self._load_all()

    def add(self, family: Family) -> None:
        self.families[family.key] = family

    def value(self, session: str, key: str) -> Value:
        return self._values.get(session, {}).get(key)

    async def set(self, session: Session, key: str, value: Value) -> None:
        """Change one family's value on the session now, on each of its tabs, and on disk.

        If the browser refuses it, the value before stays (and is put back on the tabs).
        """
        values = self._values.setdefault(session.name, {})
        before = values.get(key)
        _put(values, key, value)
        try:
            await self._apply(session, key, value)
        except BaseException:  # a failed or cancelled apply, then re-raised: the old value goes back
            _put(values, key, before)
            await asyncio.shield(self._apply_quietly(session, key, before))
            raise
        self._restored.get(session.name, set()).discard(key)
        await asyncio.to_thread(self.save, session.name)

    async def _apply(self, session: Session, key: str, value: Value) -> None:
        family = self.families[key]
        await family.on_context(session, value)
        for tab in list(session.tabs):
            if not tab.page.is_closed():
                await family.on_page(session, tab.page, value)

    async def _apply_quietly(self, session: Session, key: str, value: Value) -> None:
        try:
            await self._apply(session, key, value)
        except PlaywrightError as exc:
            log.info("setting %s not put back: %s", key, exc.message.splitlines()[0])

    # hooks

    async def on_new_session(self, session: Session) -> None:
        """A context for the session exists (it opened, or a switch replaced it): put the values on it."""
        for key, value in list(self._values.get(session.name, {}).items()):
            try:
                if key not in self.families:
                    raise ValueError("this version does not know it")
                await self.families[key].on_context(session, value)
            except (PlaywrightError, BrowseError, OSError, ValueError, KeyError, TypeError) as exc:
                self._refused(session.name, key, exc)  # a file edited by hand, or from another version

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        values = dict(self._values.get(session.name, {}))
        if values:
            task = asyncio.ensure_future(self._page(session, tab.page, values))
            task.add_done_callback(_log_failure)
            self._pending[tab.page] = task

    async def _page(self, session: Session, page: Page, values: dict[str, Value]) -> None:
        for key, value in values.items():
            try:
                await self.families[key].on_page(session, page, value)
            except PlaywrightError as exc:
                log.info("setting %s not applied to a new tab: %s", key, exc.message.splitlines()[0])

    async def ready(self, page: Page, timeout_s: float | None = None) -> None:
        """Wait until a new tab has the session's settings: an action must not load a page before.

        Past `timeout_s` (a page whose scripts block) the command goes on; the settings still land.
        """
        task = self._pending.pop(page, None)
        if task is not None:
            # never raises: a setting a tab refused is logged, the action goes on
            await asyncio.wait([task], timeout=timeout_s)

    def _refused(self, session: str, key: str, exc: Exception) -> None:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        self._values.get(session, {}).pop(key, None)
        self.save(session)
        notice = f"session {session}: the saved {key} setting could not be applied ({why}); it was dropped"
        log.warning(notice)
        self.notices.add(notice)

    # an action's report

    def marks(self, session: Session) -> dict[str, int]:
        return {key: family.mark(session) for key, family in self.families.items()}

    def report(self, session: Session, marks: dict[str, int], page_url: str) -> list[str]:
        lines: list[str] = []
        for key, since in marks.items():
            lines += self.families[key].report(session, since, page_url)
        return lines

    # status

    def status_line(self) -> str:
        lines: list[str] = []
        for session in sorted(self._values):
            values = self._values[session]
            if not values:
                continue
            restored = sorted(self._restored.get(session, set()) & set(values))
            said = f" (restored after a restart: {', '.join(restored)})" if restored else ""
            lines.append(f"settings of session {session}{said}:")
            lines += [f"  {key}: {self._describe(key, v)}" for key, v in values.items()]
        return "\n".join(lines)

    def _describe(self, key: str, value: Value) -> str:
        family = self.families.get(key)
        return (
            family.describe(value)
            if family
            else "(not known to this version: dropped when the session opens)"
        )

    # disk

    def path(self, session: str) -> str:
        folder, name = os.path.split(session_file(self.state_dir, session))
        return os.path.join(folder, "settings-" + name.removeprefix("session-"))

    def save(self, session: str) -> None:
        if not self.persist:
            return
        values = self._values.get(session, {})
        path = self.path(session)
        if values:
            write_state(path, {"version": 1, "session": session, "settings": values})
        elif os.path.lexists(path):
            os.remove(path)

    def _load_all(self) -> None:
        folder = os.path.dirname(self.path("x"))
        try:
            names = [n for n in os.listdir(folder) if n.startswith("settings-") and n.endswith(".json")]
        except (FileNotFoundError, NotADirectoryError):
            return
        for name in names:
            self._load(os.path.join(folder, name))

    def _load(self, path: str) -> None:
        try:
            data = json.loads(read_regular(path))
            session, settings = data["session"], data["settings"]
            if not isinstance(session, str) or not isinstance(settings, dict):
                raise StateFileError("not a settings file")
        except (OSError, ValueError, KeyError, TypeError, StateFileError) as exc:
            aside = set_aside(path)
            self.notices.add(f"saved settings unreadable ({exc}); started without them; kept as {aside}")
            return
        self._values[session] = {k: v for k, v in settings.items() if v is not None}
        self._restored[session] = set(self._values[session])
