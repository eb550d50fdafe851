"""One command request as the daemon handles it: frozen and typed, once its body has been checked.

The CLI sends JSON (see `refbrowse.specs.Request`); `intake` checks each field's
type, and `CheckedRequest.from_body` turns the checked body into this. Everything past
the HTTP layer (dispatch, `chain`'s steps, the activity page's feed and cookie
picker) passes a `CheckedRequest`, never the raw dict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

DEFAULT_SESSION = "default"
FlagValue = str | bool | int | float | list[str]  # a list: a flag given more than once


@dataclass(frozen=True, slots=True)
class CheckedRequest:
    command: str
    args: tuple[str, ...] = ()
    flags: Mapping[str, FlagValue] = field(default_factory=lambda: MappingProxyType({}))
    json: bool = False
    raw: bool = False
    session: str = DEFAULT_SESSION
    timeout_ms: int | None = None  # the caller's --timeout: every limit of this command
    stdin: str | None = None
    client: str = "cli"  # who sent it ("cli", "mcp", "chat"), for the activity page's feed
    argv_text: bool = False  # the text argument came in the CLI's argv (the process list shows it)
    stdin_texts: tuple[int, ...] = ()  # …but the texts at these places in args came on stdin (`-`)

    @classmethod
    def from_body(cls, body: Mapping[str, Any]) -> CheckedRequest:
        """A request from a body whose fields `intake` has checked (or one we built ourselves)."""
        timeout = body.get("timeout")
        stdin = body.get("stdin")
        return cls(
            command=str(body.get("command")),
            args=tuple(str(arg) for arg in body.get("args") or ()),
            flags=MappingProxyType(dict(body.get("flags") or {})),
            json=bool(body.get("json")),
            raw=bool(body.get("raw")),
            session=str(body.get("session") or DEFAULT_SESSION),
            timeout_ms=timeout if isinstance(timeout, int) and not isinstance(timeout, bool) else None,
            stdin=stdin if isinstance(stdin, str) else None,
            client=str(body.get("client") or "cli"),
            argv_text=body.get("argv_text") is True,
            stdin_texts=tuple(i for i in body.get("stdin_texts") or () if isinstance(i, int)),
        )
