"""Bad input never gets a 500 or a hang: every malformed request to the daemon's
socket (bad body, bad headers, headers that never end) gets a 4xx whose body is
a failed result with a one-line reason, within the request timeout, and the
daemon stays healthy."""

from __future__ import annotations

import json
import random
import socket
import time

import pytest

from conftest import Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

REQUEST_TIMEOUT_S = 10  # the daemon's bound for a request to arrive
TOKEN = "{token}"  # replaced by the daemon's token


@pytest.fixture(scope="module")
def daemon(workspace: Workspace) -> Workspace:
    workspace.ok("goto", "about:blank")
    return workspace


def _send(ws: Workspace, data: bytes, pause: float = 0, rest: bytes = b"") -> tuple[bytes, float]:
    """Send raw bytes (then, after `pause`, `rest`); return the whole answer and how long it took."""
    info = ws.daemon_info()
    data = data.replace(TOKEN.encode(), str(info["token"]).encode())
    rest = rest.replace(TOKEN.encode(), str(info["token"]).encode())
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(REQUEST_TIMEOUT_S + 20)
    began = time.monotonic()
    sock.connect(str(info["socket"]))
    sock.sendall(data)
    if pause:
        time.sleep(pause)
        sock.sendall(rest)
    answer = b""
    try:
        while not _complete(answer) and (chunk := sock.recv(65536)):
            answer += chunk
    except ConnectionResetError:
        pass
    sock.close()
    return answer, time.monotonic() - began


def _complete(answer: bytes) -> bool:
    """A whole response: its head, and the body its Content-Length says (the connection may stay open)."""
    head, found, body = answer.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def _post(body: bytes, extra: str = "") -> bytes:
    head = f"POST /command HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {TOKEN}\r\n{extra}"
    return head.encode() + f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else 0


def _reason(answer: bytes) -> str:
    """The error of a failed result (the shape every command's result has), checked to be one line."""
    body = json.loads(answer.partition(b"\r\n\r\n")[2])
    assert set(body) == {"ok", "output", "error", "hint", "exit_code"} and body["ok"] is False, body
    assert isinstance(body["error"], str) and "\n" not in body["error"] and body["error"]
    return str(body["error"])


def _healthy(ws: Workspace, pid: object) -> None:
    assert ws.ok("url", timeout=30).strip() == "about:blank"
    assert ws.daemon_info()["pid"] == pid


BODIES = {
    "not JSON": b"{not json",
    "empty": b"",
    "a list": b"[1, 2]",
    "a string": b'"url"',
    "no command": b'{"args": []}',
    "command not a string": b'{"command": 5}',
    "args not a list": b'{"command": "url", "args": "x"}',
    "args of numbers": b'{"command": "url", "args": [1, 2]}',
    "flags not a map": b'{"command": "url", "flags": ["--x"]}',
    "flag value a list": b'{"command": "url", "flags": {"--x": [1]}}',
    "json not a bool": b'{"command": "url", "json": "yes"}',
    "timeout a string": b'{"command": "url", "timeout": "5"}',
    "timeout a bool": b'{"command": "url", "timeout": true}',
    "timeout negative": b'{"command": "url", "timeout": -1}',
    "timeout huge": b'{"command": "url", "timeout": 99999999999999}',
    "session a number": b'{"command": "url", "session": 3}',
    "stdin a map": b'{"command": "url", "stdin": {}}',
    "an unknown field": b'{"command": "url", "evil": 1}',
    "deep nesting": b'{"command": "url", "args": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "invalid UTF-8": b'{"command": "\xff\xfe"}',
}


@pytest.mark.parametrize("case", BODIES)
def test_a_malformed_body_gets_a_400_with_one_line(daemon: Workspace, case: str) -> None:
    pid = daemon.daemon_info()["pid"]
    answer, took = _send(daemon, _post(BODIES[case]))
    assert _status(answer) == 400, answer[:300]
    assert _reason(answer)
    assert took < REQUEST_TIMEOUT_S
    _healthy(daemon, pid)


HEADERS = {
    "a non-UTF-8 token": b"POST /command HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \xff\xfe\r\n"
    b"Content-Length: 2\r\n\r\n{}",
    "a bad content length": b"POST /command HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n",
    "two content lengths": b"POST /command HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\n"
    b"Content-Length: 2\r\n\r\n",
    "a header line too long": b"GET /health HTTP/1.1\r\nHost: localhost\r\nX: " + b"a" * 20000 + b"\r\n\r\n",
    "a bad request line": b"HELLO\r\n\r\n",
    "a bad method": b"BR EW /command HTTP/1.1\r\nHost: localhost\r\n\r\n",
    "an unknown path": b"GET /../../etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n",
    "a wrong method": b"DELETE /command HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n\r\n",
    "a body too large": b"POST /command HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n"
    b"Content-Length: 999999999999\r\n\r\n",
    "a chunked body that is not JSON": b"POST /command HTTP/1.1\r\nHost: localhost\r\n"
    b"Authorization: Bearer {token}\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
}


@pytest.mark.parametrize("case", HEADERS)
def test_malformed_headers_get_a_4xx(daemon: Workspace, case: str) -> None:
    pid = daemon.daemon_info()["pid"]
    answer, took = _send(daemon, HEADERS[case])
    assert 400 <= _status(answer) < 500, answer[:300]
    assert _reason(answer)
    assert took < REQUEST_TIMEOUT_S
    _healthy(daemon, pid)


def test_a_body_that_stops_arriving_gets_a_408(daemon: Workspace) -> None:
    pid = daemon.daemon_info()["pid"]
    partial = _post(b'{"command": "url", "args": []}')[:-10]
    answer, took = _send(daemon, partial)
    assert _status(answer) == 408 and "did not arrive" in _reason(answer)
    assert took < REQUEST_TIMEOUT_S + 5
    _healthy(daemon, pid)


def test_headers_that_never_end_get_a_408(daemon: Workspace) -> None:
    pid = daemon.daemon_info()["pid"]
    answer, took = _send(daemon, b"POST /command HTTP/1.1\r\nHost: local")
    assert _status(answer) == 408 and "did not arrive" in _reason(answer), answer[:300]
    assert took < REQUEST_TIMEOUT_S + 5
    _healthy(daemon, pid)


def test_a_slow_but_complete_request_is_answered(daemon: Workspace) -> None:
    request = _post(b'{"command": "url", "args": [], "flags": {}, "json": true}')
    answer, _ = _send(daemon, request[:20], pause=2, rest=request[20:])
    assert _status(answer) == 200 and json.loads(answer.partition(b"\r\n\r\n")[2])["output"] == "about:blank"


def test_a_command_longer_than_the_request_timeout_still_answers(daemon: Workspace) -> None:
    assert daemon.run("wait", str((REQUEST_TIMEOUT_S + 2) * 1000), timeout=60).code == 0


def test_random_bodies_never_get_a_5xx(daemon: Workspace) -> None:
    pid = daemon.daemon_info()["pid"]
    rng = random.Random(12)
    pieces = [
        b"{",
        b"}",
        b"[",
        b"]",
        b'"command"',
        b'"url"',
        b":",
        b",",
        b"null",
        b"1e999",
        b'"\\ud800"',
        b"\x00",
    ]
    for _ in range(200):
        body = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        answer, _ = _send(daemon, _post(body))
        assert _status(answer) < 500 and _status(answer) != 0, (body, answer[:200])
    _healthy(daemon, pid)
