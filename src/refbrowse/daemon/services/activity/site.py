"""The activity page's web server: a loopback TCP listener, opened on the first `browse dashboard`.

The daemon's command API stays on its Unix socket; this listener serves only
the page (static files in `static/`) and its API: the command feed as
server-sent events, the refs of a tab, the live view and takeover (`screen`),
the cookie picker (`picker`), the chat box (`chat`) and the headed browser's
extension (`panel`). Each request passes `Access` first.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import TYPE_CHECKING
from urllib.parse import quote

from aiohttp import web

from refbrowse.daemon.core.browser.target import scrub
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.services.activity import chat, consent, panel, picker, screen, views
from refbrowse.daemon.services.activity.access import Access
from refbrowse.daemon.services.activity.feed import Event, Feed
from refbrowse.daemon.services.activity.redact import HIDDEN, redacted_args, redacted_flags, typed_in_chain
from refbrowse.daemon.services.handoff import Handoffs
from refbrowse.specs import Result

if TYPE_CHECKING:
    from refbrowse.daemon.services.consent.gate import ConsentGate
    from refbrowse.daemon.services.daemon_link import DaemonLink

_MOVE_ON = '<!doctype html><meta http-equiv=refresh content="0; url={}"><title>refbrowse</title>\n'

log = logging.getLogger("refbrowse")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
STATIC = ("index.html", "app.js", "app.css", "consent.js", "consent.css", "views.js")
_TYPES = {"html": "text/html", "js": "text/javascript", "css": "text/css"}
KEEPALIVE_S = 15.0
CLOSE_S = 0.5
IDLE_S = 15.0  # a connection with no whole request for this long (a half-sent head too) is closed
MAX_CONNECTIONS = 64  # open connections to the page; past it a new one is closed at once
PUBLIC_PATHS = ("/auth",)


class ActivitySite:
    def __init__(self, daemon: DaemonLink, handoffs: Handoffs, consent: ConsentGate | None = None) -> None:
        self.daemon = daemon
        self.consent = consent  # actions held for a person's answer: approved or denied on the page
        self.handoffs = handoffs
        self.feed = Feed()
        self.access = Access()
        self.heartbeat = panel.Heartbeat()  # the extension's last call, for `status`
        self.screens = screen.Screens(daemon.host, handoffs)
        self._runner: web.AppRunner | None = None
        self.chat: chat.Chat | None = None
        self._starting = asyncio.Lock()

    @property
    def port(self) -> int:
        return self.access.port

    async def url(self, session: str) -> str:
        """A fresh one-time address of the page, opening the listener if it is not open yet."""
        await self.listen()
        return f"http://127.0.0.1:{self.port}/auth?code={self.access.mint()}&session={session}"

    async def bound_url(self, session: str) -> str:
        """A fresh one-time address whose code works only with the key it carries: for a private file."""
        await self.listen()
        code, key = self.access.mint_bound()
        return f"http://127.0.0.1:{self.port}/auth?code={code}&key={key}&session={session}"

    async def listen(self) -> int:
        """Open the listener if it is not open yet; its port."""
        await self._start()
        return self.port

    async def _start(self) -> None:
        async with self._starting:
            if self._runner is not None:
                return
            # The page's event streams never end by themselves: at shutdown they are cut at once.
            runner = web.AppRunner(
                self._app(),
                access_log=None,
                handler_cancellation=True,
                shutdown_timeout=CLOSE_S,
                keepalive_timeout=_idle_s(),
            )
            await runner.setup()
            _cap_connections(runner)
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            self.access.port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
            self._runner = runner
            log.info("activity page listening on 127.0.0.1:%d", self.port)

    async def on_shutdown(self) -> None:
        await self.screens.close()
        if self.chat is not None:
            self.chat.cancel_now()
        if self._runner is not None:
            await self._runner.cleanup()

    # recording

    async def record(self, request: CheckedRequest, result: Result, started: float, parent: str) -> None:
        """Publish one command the daemon ran, its secrets taken out; never fail the command."""
        try:
            self.feed.publish(await self._event(request, result, started, parent))
        except Exception:  # the feed is a window on commands: it never fails one
            log.exception("the activity feed could not record %s", request.command)

    async def _event(self, request: CheckedRequest, result: Result, started: float, parent: str) -> Event:
        ended = time.time()  # before the redaction check, which is not the command's time
        name, session = request.command, request.session
        found = self.daemon.host.sessions.get(session)
        tab = found.current if found is not None else None
        args = list(request.args)
        shown = await redacted_args(name, args, bool(result["ok"]), tab)
        hidden = [arg for arg, seen in zip(args, shown, strict=True) if seen == HIDDEN and arg]
        if name == "chain":
            hidden += typed_in_chain(request.stdin)
        return Event(
            id=0,
            time=started,
            client=parent or request.client,
            session=session,
            tab=_number(found, tab),
            command=name,
            args=shown,
            flags=redacted_flags(dict(request.flags)),
            step_of=parent,
            duration_ms=round((ended - started) * 1000),
            ok=bool(result["ok"]),
            exit_code=int(result["exit_code"]),
            error=_without(str(result.get("error") or ""), hidden),
            hint=_without(str(result.get("hint") or ""), hidden),
        )

    # HTTP

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        app.router.add_get("/auth", self._auth)
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/api/refs", self._refs)
        screen.add_routes(app, self.screens)
        panel.add_routes(app, self.daemon, self.access, self.heartbeat)
        picker.add_routes(app, self.daemon)
        views.add_routes(app, self.daemon)
        self.chat = chat.add_routes(app, self.daemon)
        if self.consent is not None:
            consent.add_routes(app, self.consent, self.daemon)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = self.access.refusal(request)
        if refused:
            return web.json_response({"ok": False, "error": f"forbidden: {refused}"}, status=403)
        if request.path.startswith(panel.PREFIX):
            if not self.access.extension_admitted(request):
                return web.json_response({"ok": False, "error": "not the extension"}, status=401)
        elif request.path not in PUBLIC_PATHS and not self.access.admitted(request):
            return web.json_response(
                {"ok": False, "error": "not signed in", "hint": "run `browse dashboard` for a fresh link"},
                status=401,
            )
        response = await handler(request)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        if not self.access.extension_origin:  # CSP's frame-ancestors says who may frame the page
            response.headers["X-Frame-Options"] = "DENY"
        return response

    async def _auth(self, request: web.Request) -> web.StreamResponse:
        code = request.query.get("code", "")
        partitioned = self.access.for_panel(code)
        cookie = self.access.redeem(code, request.query.get("key", ""))
        if cookie is None:
            return web.Response(
                status=401,
                text="This link was used already or has expired: run `browse dashboard` for a fresh one.\n",
            )
        session = request.query.get("session", "default")
        response: web.Response = web.HTTPSeeOther(f"/?session={_quoted(session)}")
        if request.headers.get("Sec-Fetch-Site") == "cross-site":
            # Sent here by another site (`dashboard --open`'s private file page): a redirect would
            # carry that, and keep the SameSite=Strict cookie back; a page of this origin moves on.
            response = web.Response(
                text=_MOVE_ON.format(f"/?session={_quoted(session)}"), content_type="text/html"
            )
        self.access.set_cookie(response, cookie, partitioned)
        return response

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return _asset("index.html", self.access.frame_ancestors())

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return _asset(name, self.access.frame_ancestors())

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: what the page missed since `Last-Event-ID`, then each new command."""
        last = _int(request.headers.get("Last-Event-ID") or request.query.get("since"), 0)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        queue = self.feed.listen()
        try:
            for event in self.feed.since(last):
                last = await _send(response, event, last)
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    await response.write(b": keep-alive\n\n")
                    continue
                last = await _send(response, event, last)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.feed.leave(queue)
        return response

    async def _refs(self, request: web.Request) -> web.StreamResponse:
        session = self.daemon.host.sessions.get(request.query.get("session", "default"))
        tab = session.current if session is not None else None
        return web.json_response({"ok": True, "tabs": _tabs(session), "refs": panel.refs_of(tab)})


def _idle_s() -> float:
    """`IDLE_S`, or `BROWSE_DASHBOARD_IDLE_TIMEOUT` (ms) when it is a number.

    aiohttp's keep-alive timer starts with the connection and is only put off by a
    whole request, so it is the head timeout as well: a client that sends half a head
    and stops is dropped when it fires."""
    try:
        return max(1, int(os.environ["BROWSE_DASHBOARD_IDLE_TIMEOUT"])) / 1000
    except (KeyError, ValueError):
        return IDLE_S


def _cap_connections(runner: web.AppRunner) -> None:
    """Close a connection past `MAX_CONNECTIONS` at once: any local user can open this port, and
    a thousand silent connections once took every file descriptor the daemon had."""
    server = runner.server
    assert server is not None
    opened = server.connection_made

    def capped(handler: web.RequestHandler, transport: asyncio.Transport) -> None:
        opened(handler, transport)
        if len(server.connections) > MAX_CONNECTIONS:
            transport.abort()

    server.connection_made = capped  # type: ignore[method-assign] # aiohttp has no hook at a connection's start


def _without(text: str, secrets: list[str]) -> str:
    """`text` scrubbed as log lines are, and with no secret of the command in it."""
    for secret in secrets:
        text = text.replace(secret, HIDDEN)
    return scrub(text)


def _number(session: Session | None, tab: Tab | None) -> int:
    """The tab's number in its session; 0 when there is none (closed, or no session yet)."""
    return session.number(tab) if session is not None and tab is not None and tab in session.tabs else 0


def _tabs(session: Session | None) -> list[dict[str, object]]:
    if session is None:
        return []
    return [
        {"number": number, "url": tab.page.url, "current": tab is session.current}
        for number, tab in enumerate(session.tabs, 1)
    ]


async def _send(response: web.StreamResponse, event: Event, last: int) -> int:
    if event.id <= last:
        return last  # already sent from the history
    data = json.dumps(event.as_json())
    await response.write(f"id: {event.id}\nevent: command\ndata: {data}\n\n".encode())
    return event.id


def _asset(name: str, frame_ancestors: str) -> web.Response:
    text = resources.files("refbrowse.daemon.services.activity").joinpath("static", name).read_text("utf-8")
    kind = _TYPES[name.rsplit(".", 1)[1]]
    policy = f"default-src 'self'; img-src 'self' data:; frame-ancestors {frame_ancestors}"
    headers = {"Content-Security-Policy": policy}
    return web.Response(text=text, content_type=kind, headers=headers)


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or default)
    except ValueError:
        return default


def _quoted(text: str) -> str:
    return quote(text, safe="")
