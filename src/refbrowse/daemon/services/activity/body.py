"""What the activity page's `/api/` routes read from a request: a JSON object, and a session's name in it.

Any local program that signed in can post to these routes, so a body that is
not JSON, not an object, or names a session with something other than a name
gets a 400 that says so, never a traceback and a 500, and never a session
called `{'a': 1}`.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from refbrowse.daemon.core.io.request import DEFAULT_SESSION

MAX_SESSION_NAME = 100  # characters


async def json_object(request: web.Request) -> dict[str, Any]:
    """The request's body as a JSON object, or a 400 that says what is wrong with it."""
    try:
        body = await request.json()
    except ValueError:  # not JSON, or not UTF-8
        raise refused(
            "the body is not JSON", "send a JSON object with Content-Type: application/json"
        ) from None
    if not isinstance(body, dict):
        raise refused("the body must be a JSON object", 'send {"name": value, …}')
    return body


def session_of(body: dict[str, Any]) -> str:
    """The body's "session": a session's name (printable, at most `MAX_SESSION_NAME` characters), the
    default one when it names none; a 400 for anything else."""
    name = body.get("session")
    if name is None or name == "":
        return DEFAULT_SESSION
    if isinstance(name, str) and len(name) <= MAX_SESSION_NAME and name.isprintable():
        return name
    raise refused(
        f"'session' must be a session's name: a string of 1 to {MAX_SESSION_NAME} printable characters",
        'name one, as in {"session": "default"}, or leave it out for the default session',
    )


def refused(error: str, hint: str) -> web.HTTPBadRequest:
    text = json.dumps({"ok": False, "error": error, "hint": hint})
    return web.HTTPBadRequest(text=text, content_type="application/json")
