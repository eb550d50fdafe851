"""The consent gate: before a command runs, a consequential action is held for a person's answer.

Dispatch calls `check` for every command (CLI, `chain`'s steps, MCP tools, the
chat's agent, the activity page); with the policy off it returns at once. A
held action does not run: its command ends with `ConsentNeeded` (exit 5), one
line with an id and what would happen. `confirm` runs the held request as it
was, after looking again that its target still is what was held (else it is
refused); `deny` drops it; the activity page does either, and the agent's next
command hears the answer as a note. Held actions expire (`BROWSE_CONFIRM_TTL`,
seconds, default 300).

Other parts hold their own consequential steps with `require` (a page tool
its page marks destructive): the command being checked is the one held.
"""

from __future__ import annotations

import contextvars
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.webmcp.model import PageTool
from refbrowse.daemon.services.consent.policy import KINDS, ConsentPolicy, Consequence
from refbrowse.daemon.services.consent.target import consequence
from refbrowse.errors import ConsentNeeded, PageError, UsageError
from refbrowse.specs import Result

DEFAULT_TTL_S = 300.0
# The id of the held action now running because a person confirmed it, "" otherwise.
_CONFIRMED: contextvars.ContextVar[str] = contextvars.ContextVar("consent_confirmed", default="")
# The command the gate last checked in this task: what `require` holds.
_CHECKED: contextvars.ContextVar[CheckedRequest | None] = contextvars.ContextVar(
    "consent_checked", default=None
)
# …and what the gate saw it would do: a step held by `require` is compared with it on confirmation.
_CHECKED_WHAT: contextvars.ContextVar[Consequence | None] = contextvars.ContextVar(
    "consent_checked_what", default=None
)


@dataclass
class Held:
    id: str
    request: CheckedRequest
    what: Consequence
    kinds: tuple[str, ...]
    since: float  # time.monotonic()
    said: str  # what would happen, in one line

    def shown(self, ttl_s: float) -> dict[str, object]:
        left = max(0, round(ttl_s - (time.monotonic() - self.since)))
        return {
            "id": self.id,
            "what": self.said,
            "kinds": list(self.kinds),
            "session": self.request.session,
            "expires_in_s": left,
        }


class ConsentGate:
    def __init__(self, notices: Notices, policy: ConsentPolicy | None = None) -> None:
        self.notices = notices
        self.policy = policy or ConsentPolicy.from_env()
        if self.policy.refused:
            notices.add(f"{self._refused()}: every action is held until it is fixed (then `browse restart`)")
        self.ttl_s = _ttl()
        self.held: dict[str, Held] = {}
        self._running: dict[str, Held] = {}

    async def check(self, request: CheckedRequest, tab: Tab | None) -> None:
        """Raise `ConsentNeeded` if the policy holds this command; refuse a confirmed one whose
        target moved."""
        _CHECKED.set(request)
        _CHECKED_WHAT.set(None)
        confirmed = self._running.get(_CONFIRMED.get())
        if confirmed is not None and confirmed.request is request:
            now = await consequence(request.command, request.args, tab)
            if now is not None and now != confirmed.what:
                raise PageError(
                    f"not run: the page changed since the action was held ({confirmed.said});"
                    f" now: {now.said()}",
                    "look again (`browse snapshot -i`) and run the command anew",
                )
            return
        if not self.policy.on:
            return
        what = await consequence(request.command, request.args, tab)
        _CHECKED_WHAT.set(what)
        kinds = self.policy.kinds_of(what) if what is not None else []
        if what is not None and kinds:
            raise self._hold(request, what, kinds)

    def require(self, said: str, kinds: Iterable[str]) -> None:
        """Hold the command being run when the policy names any of `kinds` (`KINDS`): for a step the
        gate cannot see from outside, as a page tool its page marks destructive. `said` is what would
        happen ("tool deleteItem on shop.example"). Returns when it may go on."""
        request = _CHECKED.get()
        held_kinds = [kind for kind in kinds if kind in self.policy.kinds]
        if request is None or not held_kinds:
            return
        confirmed = self._running.get(_CONFIRMED.get())
        if confirmed is not None and confirmed.request is request:
            return
        what = _CHECKED_WHAT.get() or Consequence(request.command)
        raise self._hold(request, what, held_kinds, said)

    async def before_call(self, session: Session, tool: PageTool, given: dict[str, Any]) -> None:
        """The page tools' gate (`services.pagetools.ToolGate`): a tool its page marks consequential is
        held as destructive (every tool is held as `tools` before its command runs)."""
        if tool.destructive:
            seen = _CHECKED_WHAT.get()
            host = urlsplit(seen.page_url).netloc if seen is not None else ""
            where = f" on {host}" if host else ""
            self.require(
                f"tool {tool.name} (its page marks it consequential){where}", ["destructive", "tools"]
            )

    def _hold(
        self, request: CheckedRequest, what: Consequence, kinds: list[str], said: str = ""
    ) -> ConsentNeeded:
        self._expire()
        held = Held(secrets.token_hex(3), request, what, tuple(kinds), time.monotonic(), said or what.said())
        self.held[held.id] = held
        minutes = f"{self.ttl_s / 60:g} min"
        refused = f"; {self._refused()}" if self.policy.refused and "rule" in kinds else ""
        return ConsentNeeded(
            f"held for consent [{held.id}]: {held.said} ({', '.join(kinds)}){refused}",
            f"it did not run; a person approves with `browse confirm {held.id}` (or on the activity page),"
            f" `browse deny {held.id}` drops it; it expires in {minutes}",
        )

    async def confirm(
        self, held_id: str, dispatch: Callable[[CheckedRequest], Awaitable[Result]]
    ) -> tuple[Held, Result]:
        """Run the held action as it was; its result."""
        held = self.take(held_id)
        token = _CONFIRMED.set(held.id)
        self._running[held.id] = held
        try:
            return held, await dispatch(held.request)
        finally:
            self._running.pop(held.id, None)
            _CONFIRMED.reset(token)

    def take(self, held_id: str) -> Held:
        self._expire()
        held = self.held.pop(held_id.strip().lower(), None)
        if held is None:
            raise UsageError(
                f"no action is held as {held_id!r} (answered, expired after {self.ttl_s:g} s, or never held)",
                "see what is held with `browse confirm`; run the command again to hold it anew",
            )
        return held

    def waiting(self) -> list[Held]:
        self._expire()
        return list(self.held.values())

    def _expire(self) -> None:
        now = time.monotonic()
        for held in [h for h in self.held.values() if now - h.since > self.ttl_s]:
            del self.held[held.id]
            self.notices.add(f"expired without an answer: [{held.id}] {held.said}")

    def status_line(self) -> str:
        if not self.policy.on:
            return ""
        kinds = [k for k in KINDS if k in self.policy.kinds] + (["rules"] if self.policy.rules else [])
        waiting = len(self.waiting())
        return (
            f"consent: held before running: {', '.join(kinds)}"
            + (f" ({self._refused()}: every action is held)" if self.policy.refused else "")
            + (f"; {waiting} waiting" if waiting else "")
        )

    def _refused(self) -> str:
        return f"BROWSE_CONFIRM_RULES was refused ({self.policy.refused})"


def _ttl() -> float:
    try:
        return max(1.0, float(os.environ.get("BROWSE_CONFIRM_TTL", DEFAULT_TTL_S)))
    except ValueError:
        return DEFAULT_TTL_S
