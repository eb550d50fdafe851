"""A DevTools connection of the daemon's own to a remote browser, beside Playwright's.

Playwright's DevTools sessions speak to one target each and drop the messages of
sessions they did not open, so watching every target of a browser from its very
start (a browser-wide auto-attach, which DevTools offers in its flat mode only,
where each attached target speaks under its own session id) needs a connection
that routes those session ids itself. This is that connection: commands with an
optional session id, events handed to a handler with the session id they came on.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp

log = logging.getLogger("refbrowse")

Handler = Callable[[str, dict[str, Any]], None]  # (session id, "" for the browser; the event's params)
ANSWER_S = 10.0  # how long a remote browser may take to answer the daemon's own connection


def answer_s() -> float:
    """`ANSWER_S`, or `BROWSE_CDP_TIMEOUT` (ms) when it is a number."""
    try:
        return max(1, int(os.environ["BROWSE_CDP_TIMEOUT"])) / 1000
    except (KeyError, ValueError):
        return ANSWER_S


# Target events and the answers to this connection's few commands are small: a bigger message is not
# DevTools speaking, and ends the connection.
MAX_MESSAGE = 4 * 1024 * 1024
MAX_VERSION = 64 * 1024  # `json/version`'s answer


class CdpError(Exception):
    """A command the browser refused, or a connection that ended before it answered."""


class CdpLost(CdpError):
    """No answer: the connection is silent, closed or broken (not one command refused)."""


def version_url(endpoint: str) -> str:
    """Where a `http://host:port/...` endpoint names its browser's WebSocket (`json/version/`, query kept)."""
    parts = urlsplit(endpoint)
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit(parts._replace(path=path + "json/version/"))


async def browser_socket_url(http: aiohttp.ClientSession, endpoint: str) -> str:
    if urlsplit(endpoint).scheme in ("ws", "wss"):
        return endpoint
    async with http.get(version_url(endpoint), timeout=aiohttp.ClientTimeout(total=answer_s())) as reply:
        reply.raise_for_status()
        body = await reply.content.read(MAX_VERSION + 1)
        if len(body) > MAX_VERSION:
            raise ValueError(f"the answer of {version_url(endpoint)} is larger than {MAX_VERSION} bytes")
        return str(json.loads(body)["webSocketDebuggerUrl"])


class RawCdp:
    """One WebSocket to a browser's DevTools endpoint; commands answered by id, events by method."""

    def __init__(self, http: aiohttp.ClientSession, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._http, self._socket = http, socket
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._handlers: dict[str, Handler] = {}
        self._on_end: list[Callable[[str], None]] = []
        self.end_reason = ""  # why the connection ended, once it has
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, endpoint: str) -> RawCdp:
        http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=answer_s()))
        async with contextlib.AsyncExitStack() as unless_connected:  # the session closes on any failure
            unless_connected.push_async_callback(http.close)
            url = await browser_socket_url(http, endpoint)
            quiet_is_fine = aiohttp.ClientWSTimeout(ws_receive=None, ws_close=answer_s())
            socket = await http.ws_connect(url, max_msg_size=MAX_MESSAGE, timeout=quiet_is_fine)
            unless_connected.pop_all()
        return cls(http, socket)

    @property
    def closed(self) -> bool:
        return self._socket.closed or self._reader.done()

    def on(self, method: str, handler: Handler) -> None:
        self._handlers[method] = handler

    def on_end(self, callback: Callable[[str], None]) -> None:
        """Call `callback` with the reason when the connection ends other than by `close`."""
        self._on_end.append(callback)

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session: str = ""
    ) -> dict[str, Any]:
        """The result of `method` on `session` (the browser when ""); CdpError if refused or unanswered."""
        ident = next(self._ids)
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        answer = self._waiting[ident] = asyncio.get_running_loop().create_future()
        try:
            await self._socket.send_str(json.dumps(message))
            return await asyncio.wait_for(answer, answer_s())
        except (TimeoutError, ConnectionError, RuntimeError) as exc:
            raise CdpLost(f"{method}: {str(exc) or 'no answer'}") from None
        finally:
            self._waiting.pop(ident, None)

    async def close(self) -> None:
        self._on_end.clear()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self._socket.close()
        await self._http.close()

    async def _read(self) -> None:
        reason = "the browser closed it"
        try:
            async for frame in self._socket:
                if frame.type == aiohttp.WSMsgType.TEXT:
                    self._take(json.loads(frame.data))
                elif frame.type == aiohttp.WSMsgType.ERROR:
                    reason = f"it broke: {self._socket.exception()}"
        except (ValueError, TypeError, AttributeError) as exc:  # not DevTools: not JSON, or not its shape
            reason = f"it sent what is not DevTools ({type(exc).__name__})"
            await self._socket.close()
        finally:
            self.end_reason = reason
            for answer in self._waiting.values():
                if not answer.done():
                    answer.set_exception(CdpLost(f"the DevTools connection closed: {reason}"))
        for callback in self._on_end:
            callback(reason)

    def _take(self, message: dict[str, Any]) -> None:
        answer = self._waiting.get(message.get("id", -1))
        if answer is not None and not answer.done():
            if "error" in message:
                answer.set_exception(CdpError(str(message["error"].get("message", message["error"]))))
            else:
                answer.set_result(message.get("result", {}))
            return
        handler = self._handlers.get(message.get("method", ""))
        if handler is not None:
            try:
                handler(message.get("sessionId", ""), message.get("params", {}))
            except Exception:  # a handler's bug must not end the connection that keeps the gate
                log.exception("a DevTools event handler failed")
