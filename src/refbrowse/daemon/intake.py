"""A command request's body, read within a time bound and checked field by field.

Whatever arrives on the daemon's socket, the answer is the command's result or
a 4xx with a one-line reason: never a 500, never a connection held open by a
body that does not come. Only the CLI's own fields are accepted (see
`refbrowse.specs.Request`), each with its type.
"""

from __future__ import annotations

import asyncio
import json
import types
import typing
from typing import Any

from aiohttp import web

from refbrowse import specs
from refbrowse.daemon.httpserver import refused
from refbrowse.parse import MAX_TIMEOUT_MS

BODY_TIMEOUT_S = 10.0
MAX_BODY_BYTES = 64 * 1024 * 1024  # a chain's stdin included


def _json_types(hint: object) -> tuple[type, ...]:
    """The Python types a JSON value of a field's declared type arrives as: `str | None` → (str, NoneType)."""
    if isinstance(hint, types.UnionType):
        return tuple(t for arg in hint.__args__ for t in _json_types(arg))
    origin = typing.get_origin(hint) or hint  # list[str] arrives as a list
    assert isinstance(origin, type), hint
    return (origin,)


# The request's fields are declared once, in `specs.Request`; here is each one's type at run time.
FIELDS: dict[str, tuple[type, ...]] = {
    name: _json_types(hint) for name, hint in typing.get_type_hints(specs.Request).items()
}
_FLAG_VALUES = (str, bool, int, float)


def _flag_value(value: object) -> bool:
    """One value, or the list a repeatable flag (`--header`) was given."""
    if isinstance(value, list):
        return all(isinstance(one, str) for one in value)
    return isinstance(value, _FLAG_VALUES)


class BadRequest(Exception):
    """A request the daemon refuses, with its HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason

    def response(self) -> web.Response:
        return refused(self.status, self.reason)


async def read_command(request: web.BaseRequest) -> dict[str, Any]:
    """The checked body of a command request, or `BadRequest`."""
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise BadRequest(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
    request = request.clone(client_max_size=MAX_BODY_BYTES)
    try:
        raw = await asyncio.wait_for(request.read(), BODY_TIMEOUT_S)
    except TimeoutError:
        raise BadRequest(408, f"the request body did not arrive within {BODY_TIMEOUT_S:.0f} s") from None
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadRequest(400, "the request body is not JSON") from None
    return check_command(body)


def check_command(body: object) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequest(400, "the request body must be a JSON object")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise BadRequest(400, f"unknown field(s) in the request: {', '.join(map(repr, unknown))[:200]}")
    if "command" not in body:
        raise BadRequest(400, "the request names no command")
    for name, value in body.items():
        if (isinstance(value, bool) and bool not in FIELDS[name]) or not isinstance(value, FIELDS[name]):
            raise BadRequest(400, f"field {name!r} has the wrong type ({type(value).__name__})")
    _check_items(body)
    return body


def _check_items(body: dict[str, Any]) -> None:
    if not all(isinstance(arg, str) for arg in body.get("args") or []):
        raise BadRequest(400, "'args' must be a list of strings")
    flags = body.get("flags") or {}
    if not all(isinstance(k, str) and _flag_value(v) for k, v in flags.items()):
        raise BadRequest(400, "'flags' must map flag names to strings, numbers, booleans or lists of strings")
    timeout = body.get("timeout")
    if timeout is not None and not 0 < timeout <= MAX_TIMEOUT_MS:
        raise BadRequest(400, f"'timeout' must be 1 to {MAX_TIMEOUT_MS} ms")
