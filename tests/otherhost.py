"""The "other host" of the host and header tests: logging servers on 127.0.0.2, what got out.

`OtherHost` answers HTTP on 127.0.0.2 and keeps each request's path and
headers; `UdpLog` keeps every datagram sent to it there (a STUN binding
request, for one) and `TcpLog` the first bytes of every connection (a TURN
allocation over TCP). Nothing a test's page does should reach them unless the test
says so.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOST = "127.0.0.2"


class OtherHost:
    """An HTTP server on 127.0.0.2 that answers every GET with a small page and logs what it was sent."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str]]] = []
        seen = self.requests

        class Logged(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                body = b"<title>other host</title>other"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.http = ThreadingHTTPServer((HOST, 0), Logged)
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://{HOST}:{self.http.server_address[1]}{path}"

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


class UdpLog:
    """A UDP socket on 127.0.0.2 that keeps every datagram it receives."""

    def __init__(self) -> None:
        self.datagrams: list[bytes] = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((HOST, 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self._open = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while self._open:
            try:
                self.datagrams.append(self.sock.recv(65536))
            except TimeoutError:
                continue
            except OSError:
                return

    def close(self) -> None:
        self._open = False
        self.sock.close()


class TcpLog:
    """A TCP listener on 127.0.0.2 that keeps the first bytes of every connection made to it."""

    def __init__(self) -> None:
        self.connections: list[bytes] = []
        self.sock = socket.create_server((HOST, 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(1)
                try:
                    self.connections.append(conn.recv(64))
                except OSError:
                    self.connections.append(b"")

    def close(self) -> None:
        self.sock.close()


@contextmanager
def other_host() -> Iterator[OtherHost]:
    host = OtherHost()
    try:
        yield host
    finally:
        host.close()


@contextmanager
def udp_and_tcp_logs() -> Iterator[tuple[UdpLog, TcpLog]]:
    udp, tcp = UdpLog(), TcpLog()
    try:
        yield udp, tcp
    finally:
        udp.close()
        tcp.close()
