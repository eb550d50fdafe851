"""The daemon's HTTP layer: aiohttp's low-level server, answering every request in our shape.

The daemon routes its two paths itself (see `server.Daemon.serve`), so a
wrong path or method gets the same one-line JSON result as any refusal. What
aiohttp answers on its own, before a request reaches us (a malformed request
line, a header too long, conflicting lengths; an exception past our handler),
goes through `handle_error`, which this module's request handler overrides.

A request whose head never ends is aiohttp's blind spot: its keep-alive timer
closes such a connection without a word. Here each connection has a head
timer instead, started when it opens and again after each answer: a request
whose head has begun but not ended `HEAD_TIMEOUT_S` later gets a 408 with a
one-line reason, and the connection is closed. (The timer starts at the
connection rather than at the request's first byte because aiohttp's keep-alive
timer, `IDLE_TIMEOUT_S`, also runs from there and must stay the later one.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from aiohttp import web

from refbrowse import protocol
from refbrowse.exitcodes import ExitCode

HEAD_TIMEOUT_S = 10.0  # for a request's line and headers to arrive
IDLE_TIMEOUT_S = HEAD_TIMEOUT_S + 5  # a connection with no request at all: closed without a word
HINT = "send requests with the `browse` CLI"

Handler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]


def refused(status: int, reason: str, hint: str = HINT) -> web.Response:
    """A request the daemon turns away: a failed result (exit code 2) with its HTTP status."""
    return web.Response(
        status=status,
        body=_refusal_body(reason, hint),
        content_type="application/json",
    )


def _refusal_body(reason: str, hint: str) -> bytes:
    return protocol.render_json(protocol.failure(reason, hint, ExitCode.USAGE))


def _one_line(status: int, message: str | None) -> str:
    """aiohttp's reason (several lines, with a caret under the bad byte) cut to its first line."""
    if status >= 500:
        return f"internal error ({status}); the daemon's log has the details"
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "error"
    first = (message or "").strip().splitlines()[:1]
    return f"malformed request ({status} {phrase})" + (f": {first[0][:200]}" if first else "")


def interim(request: web.BaseRequest) -> Callable[[str], None] | None:
    """How to send a line before the answer (a `102 Processing` head), if the client asked for them.

    Only while the handler has not begun its answer: the dispatcher says its early lines while a
    command waits for its tab, and stops before the command runs."""
    transport = request.transport
    if request.headers.get(protocol.HEADER_EARLY) != "1" or transport is None:
        return None

    def say(line: str) -> None:
        if not transport.is_closing():
            value = " ".join(line.split()).encode()  # one line; the CLI reads it back as UTF-8
            head = f"HTTP/1.1 102 Processing\r\n{protocol.HEADER_NOTE}: ".encode() + value + b"\r\n\r\n"
            transport.write(head)

    return say


class _RequestHandler(web.RequestHandler):
    """One connection: aiohttp's, with errors in our shape and a bound on each request's head."""

    _head_timer: asyncio.TimerHandle | None = None
    _serving = False  # a request's head arrived and its handler has not finished
    _heard = False  # bytes of a request arrived since the last one was served

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: BaseException | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if data and not self._serving:
            self._heard = True
        super().data_received(data)

    def request_started(self) -> None:
        self._disarm()
        self._serving = True

    def request_finished(self) -> None:
        self._serving = self._heard = False
        self._arm()

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        self._disarm()
        super().handle_error(request, status, exc, message)  # logs it; raises if a response is under way
        response = refused(status, _one_line(status, message))
        response.force_close()
        return response

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = asyncio.get_running_loop().call_later(HEAD_TIMEOUT_S, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self._serving or not self._heard:
            return  # an idle connection: aiohttp's keep-alive timer closes it
        if self.transport is not None:
            reason = f"the request's headers did not arrive within {HEAD_TIMEOUT_S:.0f} s"
            body = _refusal_body(reason, HINT)
            head = (
                "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            )
            self.transport.write(head.encode() + body)
        self.force_close()


class _Server(web.Server):
    def __call__(self) -> web.RequestHandler:
        # aiohttp makes one request handler per connection here, from the options the server was given.
        return _RequestHandler(self, loop=self._loop, **self._kwargs)


def make_runner(handle: Handler, shutdown_timeout: float) -> web.ServerRunner:
    """A runner for `handle`, which sees each request once its head has arrived."""

    async def serve(request: web.BaseRequest) -> web.StreamResponse:
        connection = request.protocol if isinstance(request.protocol, _RequestHandler) else None
        if connection is not None:
            connection.request_started()
        try:
            return await handle(request)
        finally:
            if connection is not None:
                connection.request_finished()

    options: dict[str, Any] = {"access_log": None, "keepalive_timeout": IDLE_TIMEOUT_S}
    server = _Server(serve, handler_cancellation=True, **options)
    return web.ServerRunner(server, shutdown_timeout=shutdown_timeout)
