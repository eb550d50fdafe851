"""The activity page's sessions list, address bar, and Console, Network and Storage views.

The address bar (goto, back, forward, reload) and the three views run the commands
of the same names through the daemon's dispatch: the command's own code path with
its rules (the URL policy, a person's takeover), and each shows in the feed as the
activity page's. The sessions list reads the host's sessions and their tabs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.activity.body import json_object, session_of

if TYPE_CHECKING:
    from refbrowse.daemon.services.daemon_link import DaemonLink

BUTTONS = ("back", "forward", "reload")  # the bar's buttons, commands of no argument; Enter is `goto URL`
VIEWS = ("console", "network", "storage")
CLIENT = "activity page"


def sessions_of(daemon: DaemonLink) -> list[dict[str, object]]:
    """Each session with its tabs' URLs, the current one marked."""
    return [_session(session) for session in daemon.host.sessions.values()]


def _session(session: Session) -> dict[str, object]:
    tabs = [
        {"number": number, "url": tab.page.url, "current": tab is session.current}
        for number, tab in enumerate(session.tabs, 1)
        if not tab.page.is_closed()
    ]
    return {"name": session.name, "tabs": tabs}


def request_of(command: str, session: str, args: list[str]) -> CheckedRequest:
    body = {"command": command, "args": args, "flags": {}, "session": session or "default", "client": CLIENT}
    return CheckedRequest.from_body(body)


def answer(result: dict[str, Any]) -> web.Response:
    keys = ("ok", "output", "error", "hint")
    return web.json_response({key: result.get(key, "") for key in keys})


def add_routes(app: web.Application, daemon: DaemonLink) -> None:
    async def sessions(request: web.Request) -> web.StreamResponse:
        return web.json_response({"ok": True, "sessions": sessions_of(daemon)})

    async def navigate(request: web.Request) -> web.StreamResponse:
        body = await json_object(request)
        session = session_of(body)
        action = body.get("action")
        url = str(body.get("url") or "").strip()
        if action not in (*BUTTONS, "goto") or (action == "goto" and not url):
            error = (
                "type a URL first" if action == "goto" else f"action is goto or one of {', '.join(BUTTONS)}"
            )
            return web.json_response({"ok": False, "error": error}, status=400)
        args = [url] if action == "goto" else []
        return answer(dict(await daemon.dispatch(request_of(str(action), session, args))))

    async def view(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in VIEWS:
            raise web.HTTPNotFound()
        result = await daemon.dispatch(request_of(name, request.query.get("session", "default"), []))
        return answer(dict(result))

    app.router.add_get("/api/sessions", sessions)
    app.router.add_post("/api/navigate", navigate)
    app.router.add_get("/api/view/{name}", view)
