"""daemon.log stays small whatever a client sends: a malformed request is one
rate-limited line, never a traceback."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time

import pytest

from conftest import Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

MALFORMED = (
    b"GARBAGE\r\n\r\n",
    b"POST /command HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET /\x00 HTTP/1.1\r\n\r\n",
    b"\xff\xfe\r\n\r\n",
    b"GET / HTTP/1.1\r\nX: " + b"a" * 100_000 + b"\r\n\r\n",
)


def test_malformed_requests_leave_one_line_and_no_traceback(workspace: Workspace) -> None:
    workspace.ok("goto", "about:blank")
    path = str(workspace.daemon_info()["socket"])
    for n in range(150):
        sock = socket.socket(socket.AF_UNIX)
        sock.settimeout(5)
        sock.connect(path)
        with contextlib.suppress(OSError):
            sock.sendall(MALFORMED[n % len(MALFORMED)])
            sock.recv(100)
        sock.close()
    assert workspace.ok("url").strip() == "about:blank"
    log = (workspace.state_dir / "daemon.log").read_text()
    assert "Traceback" not in log, log[-3000:]
    assert 1 <= log.count("a malformed or broken request") <= 3, log[-3000:]


def test_silent_connections_to_the_activity_page_take_no_more_than_a_few_descriptors(
    workspace: Workspace,
) -> None:
    link = workspace.ok("dashboard").splitlines()[0]
    port = int(link.split(":")[2].split("/")[0])
    pid = int(str(workspace.daemon_info()["pid"]))
    silent = []
    try:
        for _ in range(600):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            silent.append(sock)
        time.sleep(1)
        assert len(os.listdir(f"/proc/{pid}/fd")) < 300
        assert workspace.ok("url").strip() == "about:blank"
    finally:
        for sock in silent:
            sock.close()
    assert workspace.ok("dashboard").startswith("http://127.0.0.1:")


def test_a_client_that_sends_half_a_head_to_the_activity_page_is_dropped_and_the_daemon_answers(
    fresh_workspace: Workspace,
) -> None:
    link = fresh_workspace.ok("dashboard", BROWSE_DASHBOARD_IDLE_TIMEOUT="1000").splitlines()[0]
    port = int(link.split(":")[2].split("/")[0])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as half:
        half.sendall(b"GET /auth HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert half.recv(100) == b""  # closed by the daemon, long before this socket's own 10 s
    with socket.create_connection(("127.0.0.1", port), timeout=10) as whole:
        whole.sendall(b"GET /app.css HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
        assert whole.recv(100).startswith(b"HTTP/1.1 ")
    assert fresh_workspace.ok("url").strip() == "about:blank"


def test_daemon_log_is_moved_aside_when_it_passes_its_cap_while_the_daemon_runs(
    fresh_workspace: Workspace,
) -> None:
    limit = 20_000
    fresh_workspace.ok("goto", "about:blank", BROWSE_LOG_LIMIT=str(limit), BROWSE_TRACE="1")
    log, old = fresh_workspace.state_dir / "daemon.log", fresh_workspace.state_dir / "daemon.log.1"
    steps = json.dumps([["goto", "about:blank"]] * 150)  # each step writes a dozen trace lines
    fresh_workspace.ok("chain", input=steps, timeout=120)  # type: ignore[arg-type]
    assert old.is_file() and old.stat().st_size > limit
    # what is over the cap is moved at the next look (every few hundred lines): never far past it
    assert log.stat().st_size < 4 * limit
    assert os.stat(log).st_mode & 0o777 == 0o600
    assert fresh_workspace.ok("url").strip() == "about:blank"
    assert "trace:" in log.read_text()
