"""`browse mcp --http`: the same tools over Streamable HTTP on 127.0.0.1, behind a bearer token.

Like the daemon, it answers only requests addressed to 127.0.0.1 or localhost
at its own port, with no browser `Origin` (a web page cannot reach it through
DNS rebinding) and with the token. The token is `BROWSE_MCP_TOKEN` when set,
else drawn at start; port, token and URL go to `.refbrowse/mcp.json` (mode 0600).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import uvicorn
from mcp.server.lowlevel import Server

from refbrowse.cli.workspace import find_state_dir
from refbrowse.errors import Unavailable, UsageError
from refbrowse.exitcodes import ExitCode
from refbrowse.protocol import ensure_state_dir, write_private_file

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

PATH = "/mcp"


class Guard:
    """ASGI middleware: right Host, no Origin, and the bearer token, or 403/401."""

    def __init__(self, app: App, port: int, token: str, token_hint: str) -> None:
        self.app = app
        self.hosts = (f"127.0.0.1:{port}", f"localhost:{port}")
        self.expected = f"Bearer {token}".encode()
        self.token_hint = token_hint  # where a client finds the token: said with every 401

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v for k, v in scope["headers"]}
        if headers.get("host", b"").decode("latin-1") not in self.hosts or "origin" in headers:
            await _refuse(send, 403, "forbidden")
        elif not hmac.compare_digest(headers.get("authorization", b""), self.expected):
            error = "unauthorized: send the header `Authorization: Bearer TOKEN`"
            await _refuse(send, 401, error, self.token_hint)
        else:
            await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, error: str, hint: str = "") -> None:
    body = json.dumps({"ok": False, "error": error, **({"hint": hint} if hint else {})}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="refbrowse"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise Unavailable(
            f"cannot listen on 127.0.0.1:{port}: {exc.strerror}", "pick another --port"
        ) from exc
    sock.listen(128)
    return sock


def _port_number(raw: object) -> int:
    try:
        port = int(str(raw)) if raw is not None else 0
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be a number from 0 to 65535, got {raw!r}", "for example: --port 8931")
    return port


def run(server: Server[Any], port_flag: object) -> int:
    sock = _bind(_port_number(port_flag))
    port = sock.getsockname()[1]
    token = os.environ.get("BROWSE_MCP_TOKEN") or secrets.token_urlsafe(32)
    state_dir = find_state_dir()
    ensure_state_dir(state_dir)
    info_path = os.path.join(state_dir, "mcp.json")
    token_hint = f'TOKEN is the "token" of {info_path}'
    if os.environ.get("BROWSE_MCP_TOKEN"):
        token_hint = f"TOKEN is the BROWSE_MCP_TOKEN the server started with ({token_hint[9:]})"
    app = Guard(server.streamable_http_app(streamable_http_path=PATH), port, token, token_hint)
    url = f"http://127.0.0.1:{port}{PATH}"
    write_private_file(info_path, json.dumps({"pid": os.getpid(), "port": port, "url": url, "token": token}))
    sys.stderr.write(f"refbrowse MCP server on {url} (bearer token in {info_path})\n")
    sys.stderr.flush()
    _Uvicorn(uvicorn.Config(app, log_level="warning", lifespan="on"), info_path).run(sockets=[sock])
    return ExitCode.OK


class _Uvicorn(uvicorn.Server):
    """Removes the server's file on shutdown: uvicorn re-raises SIGTERM once it has stopped."""

    def __init__(self, config: uvicorn.Config, info_path: str) -> None:
        super().__init__(config)
        self.info_path = info_path

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().shutdown(sockets)
        finally:
            with contextlib.suppress(OSError):
                os.remove(self.info_path)
