"""A minimal HTTP/1.1 client over a raw socket, for the CLI's warm path.

`http.client` costs the CLI ~30 ms to import and `socket` ~5 ms (it brings
`enum` and `selectors`); this uses the C `_socket` module directly. It speaks to
our own daemon only: one request per connection, the body read to its
Content-Length (snapshots reach hundreds of kilobytes). The CLI's half of the
transport lives here alone: callers pass the daemon's description.
"""

from __future__ import annotations

import _socket
import os
import sys

from refbrowse.protocol import HEADER_EARLY, HEADER_NOTE, daemon_address, socket_path_for_connect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class DaemonGone(Exception):
    """Nothing answers at the daemon's address, or it hung up mid-answer."""


def request(
    info: dict[str, object],
    method: str,
    path: str,
    body: bytes = b"",
    timeout: float | None = None,
    early: Callable[[str], None] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """Send one request to the daemon `info` describes; return status, headers (lower-case names), body.

    With `early`, the daemon may say lines before its answer (a command waiting for
    its tab says for what): each is handed to `early` as it comes.

    Over the daemon's Unix socket, and only once the process at the other end is
    known to run as this user: nothing, the token least of all, is sent to anyone
    else. A TCP port named in a file is never used where there are Unix sockets:
    anyone may listen on a port.
    """
    try:
        socket_path, port, token = daemon_address(info)
    except (KeyError, ValueError) as exc:
        raise DaemonGone(f"the daemon file has no usable address: {exc}") from exc
    unix = hasattr(_socket, "AF_UNIX")
    if unix and not socket_path:
        raise DaemonGone("the daemon file names no Unix socket; nothing was sent")
    host = "localhost" if unix else f"127.0.0.1:{port}"
    head = [
        f"{method} {path} HTTP/1.1",
        f"Host: {host}",
        "Connection: close",
        f"Authorization: Bearer {token}",
    ]
    if early is not None:
        head.append(f"{HEADER_EARLY}: 1")
    if body:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    data = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    sock = _socket.socket(_socket.AF_UNIX if unix else _socket.AF_INET, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        if unix:
            sock.connect(socket_path_for_connect(socket_path))
            _check_peer(sock)
        else:
            sock.connect(("127.0.0.1", port))
        sock.sendall(data)
        return _read_response(sock, early)
    except OSError as exc:
        raise DaemonGone(str(exc)) from exc
    finally:
        sock.close()


class ForeignDaemon(DaemonGone):
    """The process behind the daemon's socket runs as another user."""


def _check_peer(sock: _socket.socket) -> None:
    """Refuse a socket whose listener is not this user (Linux `SO_PEERCRED`: pid, uid, gid)."""
    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return  # elsewhere the private directory alone keeps other users out
    creds = sock.getsockopt(_socket.SOL_SOCKET, option, 12)
    uid = int.from_bytes(creds[4:8], sys.byteorder)
    if uid != os.getuid():
        raise ForeignDaemon(f"the daemon's socket is held by another user (uid {uid}); nothing was sent")


def _read_response(
    sock: _socket.socket, early: Callable[[str], None] | None = None
) -> tuple[int, dict[str, str], bytes]:
    buf = b""
    while True:
        while b"\r\n\r\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                raise DaemonGone("the daemon closed the connection before answering")
            buf += chunk
        head, _, buf = buf.partition(b"\r\n\r\n")
        status, headers = _head(head)
        if not 100 <= status < 200:
            break
        note = headers.get(HEADER_NOTE.lower())
        if note and early is not None:  # an interim head: a line before the answer
            early(note.encode("latin-1").decode("utf-8", "replace"))
    body = buf
    length = int(headers["content-length"]) if "content-length" in headers else None
    parts = [body]
    received = len(body)
    while length is None or received < length:
        chunk = sock.recv(max(65536, (length or 0) - received))
        if not chunk:
            if length is None:
                break
            raise DaemonGone("the daemon closed the connection mid-answer")
        parts.append(chunk)
        received += len(chunk)
    return status, headers, b"".join(parts)


def _head(head: bytes) -> tuple[int, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    return status, headers
