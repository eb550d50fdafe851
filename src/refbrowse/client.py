"""A minimal HTTP/1.1 client over a raw socket, for the CLI's warm path.

`http.client` costs the CLI ~30 ms to import and `socket` ~5 ms (it brings
`enum` and `selectors`); this uses the C `_socket` module directly. It speaks to
our own daemon only: one request per connection, the body read to its
Content-Length (snapshots reach hundreds of kilobytes).
"""

from __future__ import annotations

import _socket


class DaemonGone(Exception):
    """Nothing answers at the daemon's port, or it hung up mid-answer."""


def request(
    port: int,
    method: str,
    path: str,
    token: str | None = None,
    body: bytes = b"",
    timeout: float | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """Send one request to 127.0.0.1:port; return status, headers (lower-case names), body."""
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    if body:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    data = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(("127.0.0.1", port))
        sock.sendall(data)
        return _read_response(sock)
    except OSError as exc:
        raise DaemonGone(str(exc)) from exc
    finally:
        sock.close()


def _read_response(sock: _socket.socket) -> tuple[int, dict[str, str], bytes]:
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise DaemonGone("the daemon closed the connection before answering")
        buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
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
