"""Text typed as a secret, remembered so that recordings can leave it out before they are written.

A text is a secret when it came on the CLI's stdin (`fill SEL -`, `type -`),
went into a password field or a field named like one (as the activity feed
judges it, `activity.redact`), or is a password the vault filled. The daemon
keeps the last few in memory only; `har stop` and `trace stop` replace every
spelling of them (raw, URL-encoded, JSON-escaped, HTML-escaped) before a byte
reaches the file. After every command, as a `Recorder`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable
from urllib.parse import quote, quote_plus

from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.activity.redact import HIDDEN, redacted_args
from refbrowse.specs import Result

KEPT = 256  # secrets remembered; the oldest go first
TYPED = ("fill", "type")
MIN_BINARY = 4  # shorter secrets are not replaced inside binary files (an image's bytes)


class TypedSecrets:
    """The secrets of this daemon's life, newest last."""

    def __init__(self, sessions: Callable[[str], Session | None]) -> None:
        self._known: dict[str, None] = {}
        self._sessions = sessions

    def add(self, text: str) -> None:
        if not text:
            return
        self._known.pop(text, None)
        self._known[text] = None
        while len(self._known) > KEPT:
            del self._known[next(iter(self._known))]

    def known(self) -> tuple[str, ...]:
        return tuple(self._known)

    async def record(self, request: CheckedRequest, result: Result, started: float, parent: str) -> None:
        """After each `fill` and `type`: remember the text if it was typed as a secret."""
        if request.command not in TYPED or not request.args:
            return
        for place, target, text in _typed(request):
            stdin = _from_stdin(request, parent, place)
            if stdin or await self._masked(request, target, text, bool(result["ok"])):
                self.add(text)

    async def _masked(self, request: CheckedRequest, target: str, text: str, ok: bool) -> bool:
        session = self._sessions(request.session)
        tab = session.current if session is not None else None
        shown = await redacted_args(request.command, [target, text] if target else [text], ok, tab)
        return shown[-1] == HIDDEN


def _typed(request: CheckedRequest) -> list[tuple[int, str, str]]:
    """(place in args, target, text) of each text the command typed; `type TEXT` has no target."""
    args = request.args
    if len(args) < 3:
        return [(len(args) - 1, args[0] if len(args) > 1 else "", args[-1])]
    return [(place, args[place - 1], args[place]) for place in range(1, len(args), 2)]


def _from_stdin(request: CheckedRequest, parent: str, place: int) -> bool:
    """The CLI read this text from its stdin: never shown in argv, so meant as a secret."""
    if parent or request.client != "cli":
        return False
    return (not request.argv_text) or place in request.stdin_texts


def spellings(secret: str) -> list[str]:
    """Every way `secret` is written in a request body, a JSON file or a page: longest first."""
    once = json.dumps(secret, ensure_ascii=False)[1:-1]
    forms = {
        secret,
        once,
        json.dumps(once, ensure_ascii=False)[1:-1],
        json.dumps(secret)[1:-1],
        quote_plus(secret, safe=""),
        quote(secret, safe=""),
        html.escape(secret),
    }
    return sorted(forms, key=len, reverse=True)


def scrub_text(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        for form in spellings(secret):
            if form in text:
                text = text.replace(form, HIDDEN)
    return text


def scrub_bytes(data: bytes, secrets: Iterable[str], binary: bool = False) -> bytes:
    """`data` without any spelling of a secret; in a `binary` file only secrets long enough to be sure."""
    for secret in secrets:
        if binary and len(secret) < MIN_BINARY:
            continue
        for form in spellings(secret):
            raw = form.encode()
            if raw in data:
                data = data.replace(raw, HIDDEN.encode())
    return data
