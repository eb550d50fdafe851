"""BROWSE_ALLOWED_HOSTS in the workers of a remote browser: their WebSockets to another host are refused.

The page of a real site on 127.0.0.1 starts a dedicated worker (which starts a
nested one), a shared worker, a worker from a blob and a service worker; each
opens a WebSocket (the page a WebSocketStream) to a small WebSocket server on
127.0.0.2 (outside the policy) and to one on 127.0.0.1 (inside), and tells the
page what happened.
"""

from __future__ import annotations

import base64
import hashlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from test_remote import RemoteChromium, playwright_server, remote  # noqa: F401 - fixtures

from conftest import FixtureHandler, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

HANDSHAKE = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

# Each worker script starts with this: try a WebSocket, say what came of it.
ATTEMPT = """
const attempt = (name, url, post) => {
  try {
    const socket = new WebSocket(url);
    socket.onmessage = event => post(`${name} got ${event.data}`);
    socket.onerror = () => post(`${name} error`);
  } catch (error) {
    post(`${name} refused ${error.name}`);
  }
};
"""


class SocketServer:
    """A tiny WebSocket server: completes the handshake, says hello, and keeps who connected."""

    def __init__(self, host: str) -> None:
        self.paths: list[str] = []
        server = self

        class Upgrade(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # a WebSocket handshake is refused over HTTP/1.0

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                server.paths.append(self.path)
                key = self.headers.get("Sec-WebSocket-Key", "")
                accept = base64.b64encode(hashlib.sha1((key + HANDSHAKE).encode()).digest()).decode()
                self.send_response(101)
                self.send_header("Upgrade", "websocket")
                self.send_header("Connection", "Upgrade")
                self.send_header("Sec-WebSocket-Accept", accept)
                self.end_headers()
                self.wfile.write(b"\x81\x05hello")  # one unmasked text frame
                self.wfile.flush()
                time.sleep(2)

        self.http = ThreadingHTTPServer((host, 0), Upgrade)
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        host, port = self.http.server_address[:2]
        return f"ws://{host}:{port}{path}"

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def sockets() -> Iterator[tuple[SocketServer, SocketServer]]:
    outside, inside = SocketServer("127.0.0.2"), SocketServer("127.0.0.1")
    yield outside, inside
    outside.close()
    inside.close()


def _script(body: str) -> object:
    def serve(h: FixtureHandler) -> None:
        data = (ATTEMPT + body).encode()
        h.send_response(200)
        h.send_header("Content-Type", "text/javascript")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    return serve


def worker_pages(site: Site, outside: SocketServer, inside: SocketServer) -> str:
    def both(name: str, post: str) -> str:
        return "".join(
            f"attempt('{name} {where}', '{server.url('/' + name.replace(' ', '-'))}', {post});"
            for where, server in (("outside", outside), ("inside", inside))
        )

    site.route("/wk/dedicated.js", _script(both("dedicated", "postMessage") + NESTED))  # type: ignore[arg-type]
    site.route("/wk/nested.js", _script(both("nested", "postMessage")))  # type: ignore[arg-type]
    to_port = both("shared", "m => port.postMessage(m)")
    shared = f"onconnect = event => {{ const port = event.ports[0]; {to_port} }};"
    site.route("/wk/shared.js", _script(shared))  # type: ignore[arg-type]
    to_client = both("service", "m => event.source.postMessage(m)")
    site.route("/wk/service.js", _script(f"onmessage = event => {{ {to_client} }};"))  # type: ignore[arg-type]
    blob = (ATTEMPT + both("blob", "postMessage")).replace("`", "\\`").replace("${", "\\${")
    return site.page(
        "/wk/page",
        "<title>workers</title><pre id=log></pre><script>"
        "const log = line => { document.getElementById('log').textContent += line + '\\n'; };"
        "new Worker('/wk/dedicated.js').onmessage = event => log(event.data);"
        "new SharedWorker('/wk/shared.js').port.onmessage = event => log(event.data);"
        f"new Worker(URL.createObjectURL(new Blob([`{blob}`]))).onmessage = event => log(event.data);"
        "navigator.serviceWorker.onmessage = event => log(event.data);"
        "navigator.serviceWorker.register('/wk/service.js');"
        "navigator.serviceWorker.ready.then(ready => ready.active.postMessage('go'));"
        f"{stream('outside', outside)}{stream('inside', inside)}"
        "</script>",
    )


def stream(where: str, server: SocketServer) -> str:
    """The page's own WebSocketStream, which the page's WebSocket route does not see."""
    return (
        f"try {{ new WebSocketStream('{server.url('/stream')}').opened"
        ".then(({readable}) => readable.getReader().read())"
        f".then(({{value}}) => log('stream {where} got ' + value), () => log('stream {where} error')); }}"
        f" catch (error) {{ log('stream {where} refused ' + error.name); }}"
    )


NESTED = "new Worker('/wk/nested.js').onmessage = event => postMessage(event.data);"
KINDS = ("dedicated", "nested", "shared", "blob", "service")  # and the page's own WebSocketStream


def _log_lines(ws: Workspace, count: int) -> set[str]:
    """The page's log once `count` lines are in it (or what it has after 30 s)."""
    lines: set[str] = set()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        result = ws.run("js", "document.getElementById('log').textContent")
        lines = {line.strip() for line in result.out.splitlines() if "side " in line}
        if len(lines) >= count:
            break
        time.sleep(0.5)
    return lines


def test_a_remote_browsers_workers_cannot_open_a_websocket_outside_the_allowed_hosts(
    fresh_workspace: Workspace,
    site: Site,
    remote: RemoteChromium,  # noqa: F811
    sockets: tuple[SocketServer, SocketServer],
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    outside, inside = sockets
    url = worker_pages(site, outside, inside)
    ws.ok("goto", "about:blank")
    assert "Now remote (cdp" in ws.ok("connect", "--cdp", remote.url)
    ws.ok("goto", url)
    lines = _log_lines(ws, 2 * len(KINDS) + 2)
    assert outside.paths == [], f"a socket reached a host outside BROWSE_ALLOWED_HOSTS: {lines}"
    for kind in (*KINDS, "stream"):
        assert f"{kind} outside refused SecurityError" in lines, lines
        assert f"{kind} inside got hello" in lines, f"a worker's socket inside the policy connects: {lines}"
    assert sorted(inside.paths) == sorted(f"/{kind}" for kind in (*KINDS, "stream"))


def test_a_playwright_servers_pages_cannot_stream_outside_and_its_workers_are_said_unheld(
    fresh_workspace: Workspace,
    site: Site,
    playwright_server: str,  # noqa: F811
    sockets: tuple[SocketServer, SocketServer],
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    ws.env["BROWSE_WS_ENDPOINT"] = playwright_server
    outside, inside = sockets
    streams = "const log = line => { document.getElementById('log').textContent += line + '\\n'; };"
    page = site.page(
        "/wk/streams",
        f"<title>streams</title><pre id=log></pre><script>{streams}"
        f"{stream('outside', outside)}{stream('inside', inside)}</script>",
    )
    first = ws.run("goto", page)
    assert first.code == 0, first
    assert "does not hold the WebSockets of a Playwright server's workers" in first.err, first.err
    lines = _log_lines(ws, 2)
    assert "stream outside refused SecurityError" in lines, lines
    assert "stream inside got hello" in lines, lines
    assert outside.paths == [] and inside.paths == ["/stream"], (outside.paths, inside.paths)
