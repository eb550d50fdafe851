"""The CLI reaches its daemon over a Unix socket in the private state directory:
both ends check the other's uid, the token is a second lock, TCP is opt-in, and
nobody bound to a dead daemon's old address receives anything."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import Workspace
from killing import wait_for_exit

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

NOBODY = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")


def _raw(path: str, head: str, body: bytes = b"") -> tuple[int, bytes]:
    """One HTTP request over the Unix socket at `path`: status and body."""
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(10)
    sock.connect(path)
    sock.sendall(head.encode() + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    status = int(data.split(b" ", 2)[1])
    return status, data.partition(b"\r\n\r\n")[2]


URL_REQUEST = json.dumps({"command": "url", "args": [], "flags": {}, "json": True}).encode()


def _post(ws: Workspace, headers: str) -> int:
    path = str(ws.daemon_info()["socket"])
    return _raw(path, f"POST /command HTTP/1.1\r\n{headers}", URL_REQUEST)[0]


def test_the_token_is_still_needed_over_the_socket(workspace: Workspace) -> None:
    workspace.ok("goto", "about:blank")
    token = workspace.daemon_info()["token"]
    assert _post(workspace, "Host: localhost\r\n") == 401
    assert _post(workspace, "Host: localhost\r\nAuthorization: Bearer wrong\r\n") == 401
    assert _post(workspace, f"Host: localhost\r\nAuthorization: Bearer {token}\r\n") == 200
    origin = f"Host: localhost\r\nAuthorization: Bearer {token}\r\nOrigin: http://127.0.0.1\r\n"
    assert _post(workspace, origin) == 403


def test_tcp_is_opened_only_when_asked_for(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank", BROWSE_PORT="0")
    info = fresh_workspace.daemon_info()
    assert isinstance(info["port"], int) and info["port"] > 0 and info["socket"]
    assert f"127.0.0.1:{info['port']}" in fresh_workspace.ok("status")


@as_root
def test_the_daemon_refuses_a_connection_from_another_user(workspace: Workspace) -> None:
    workspace.ok("goto", "about:blank")
    info = workspace.daemon_info()
    sock = Path(str(info["socket"]))
    modes = workspace.state_dir.stat().st_mode, sock.stat().st_mode  # put back as the daemon made them
    # Open the way through the file system, so that only the uid check stands.
    workspace.state_dir.chmod(0o711)
    sock.chmod(0o666)
    try:
        head = f"POST /command HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {info['token']}\r\n"
        assert _as_nobody(str(sock), head) == 403
    finally:
        workspace.state_dir.chmod(stat.S_IMODE(modes[0]))  # the CLI uses only a private state directory
        sock.chmod(stat.S_IMODE(modes[1]))
    assert workspace.ok("url").strip() == "about:blank"


def test_the_daemon_listens_on_a_private_unix_socket_and_no_port(workspace: Workspace) -> None:
    # The module's daemon, shared with the two tests above: this one stops it, so it comes last.
    workspace.ok("goto", "about:blank")
    info = workspace.daemon_info()
    sock = Path(str(info["socket"]))
    assert sock.parent == workspace.state_dir and stat.S_ISSOCK(sock.stat().st_mode)
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    assert stat.S_IMODE(workspace.state_dir.stat().st_mode) == 0o700
    assert info["port"] == 0
    assert "listening: " + str(sock) in workspace.ok("status")
    workspace.ok("stop")
    assert not sock.exists()


def _as_nobody(path: str, head: str) -> int:
    """The status a request over `path` gets from a process running as `nobody`.

    A forked child: the directory is opened before dropping to `nobody`, and the
    socket reached through that descriptor, because the test's own temporary
    directories are private to root.
    """
    folder = os.open(os.path.dirname(path), os.O_RDONLY | os.O_DIRECTORY)
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        status = 0
        try:
            os.setuid(NOBODY)
            status = _raw(f"/proc/self/fd/{folder}/{os.path.basename(path)}", head, URL_REQUEST)[0]
        finally:
            os.write(write_end, str(status).encode())
            os._exit(0)
    os.close(write_end)
    os.close(folder)
    os.waitpid(child, 0)
    answer = os.read(read_end, 16)
    os.close(read_end)
    return int(answer or 0)


# Listens until its stdin closes (the command that might have talked to it is over), or for
# at most the given seconds without a connection; then says what it got.
SQUATTER = """
import os, select, socket, sys
family, where = sys.argv[1], sys.argv[2]
if family == "unix":
    s = socket.socket(socket.AF_UNIX); s.bind(where); os.chmod(where, 0o666)
else:
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", int(where)))
if os.geteuid() == 0:
    os.setuid(65534)
s.listen(8); print("ready", flush=True)
got = b""; connections = 0
def knocked():
    return s in select.select([s, sys.stdin], [], [], float(sys.argv[3]))[0]
try:
    while knocked():
        c, _ = s.accept(); connections += 1; c.settimeout(3)
        while (d := c.recv(65536)):
            got += d
except OSError:
    pass
print(connections, len(got)); sys.stdout.write(got.decode(errors="replace"))
"""


def _squat(family: str, where: str, seconds: float) -> subprocess.Popen[str]:
    squatter = subprocess.Popen(
        [sys.executable, "-c", SQUATTER, family, where, str(seconds)],
        stdin=subprocess.PIPE,  # `communicate` closes it: the squatter reports at once
        stdout=subprocess.PIPE,
        text=True,
    )
    assert squatter.stdout is not None and squatter.stdout.readline().strip() == "ready"
    return squatter


def _crash(ws: Workspace) -> dict[str, object]:
    """SIGKILL the daemon, leaving its daemon.json (and socket file) behind as a crash does."""
    info = ws.daemon_info()
    os.kill(int(str(info["pid"])), signal.SIGKILL)
    wait_for_exit(int(str(info["pid"])))
    assert (ws.state_dir / "daemon.json").exists()
    return info


@as_root
def test_a_squatter_on_the_dead_daemons_socket_gets_nothing(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank")
    info = _crash(fresh_workspace)
    os.remove(str(info["socket"]))
    squatter = _squat("unix", str(info["socket"]), 20)
    secret = "hunter2-squatted"
    result = fresh_workspace.run("js", f"'{secret}'")
    assert result.code == 0 and secret in result.out, result.err
    assert fresh_workspace.daemon_info()["pid"] != info["pid"]
    out, _ = squatter.communicate(timeout=60)
    lines = out.splitlines()
    assert lines[0].split()[1] == "0", out  # bytes received
    assert str(info["token"]) not in out and secret not in out


def test_a_squatter_on_the_dead_daemons_old_port_gets_nothing(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank", BROWSE_PORT="0")
    info = _crash(fresh_workspace)
    squatter = _squat("tcp", str(info["port"]), 8)
    secret = "hunter2-on-port"
    result = fresh_workspace.run("js", f"'{secret}'")
    assert result.code == 0 and secret in result.out, result.err
    out, _ = squatter.communicate(timeout=60)
    assert out.splitlines()[0] == "0 0", out  # not even a connection


@pytest.mark.parametrize(
    "bad",
    [
        "not json at all",
        '{"pid": "12", "port": 0}',
        '{"pid": 1, "socket": 5, "port": 0, "token": "x", "started": 1, "version": "v", "mode": "m"}',
        "[1, 2, 3]",
        "\x00\xff" * 50,
        "",
    ],
)
def test_a_corrupt_daemon_file_under_a_running_daemon_costs_no_wait(
    fresh_workspace: Workspace, bad: str
) -> None:
    fresh_workspace.ok("goto", "about:blank")
    pid = fresh_workspace.daemon_info()["pid"]
    (fresh_workspace.state_dir / "daemon.json").write_text(bad)
    began = time.monotonic()
    assert fresh_workspace.ok("url", timeout=30).strip() == "about:blank"
    assert time.monotonic() - began < 10
    assert fresh_workspace.daemon_info()["pid"] == pid  # the same daemon, found through its lock
    (fresh_workspace.state_dir / "daemon.json").write_text(bad)
    status = fresh_workspace.run("status", timeout=30)
    assert status.code == 0 and f"pid: {pid}" in status.out, status.err
    (fresh_workspace.state_dir / "daemon.json").write_text(bad)
    assert fresh_workspace.ok("stop", timeout=30).strip() == "Stopped."
    wait_for_exit(int(str(pid)))


def test_a_corrupt_daemon_file_with_no_daemon_is_no_daemon(fresh_workspace: Workspace) -> None:
    fresh_workspace.state_dir.mkdir(mode=0o700)
    (fresh_workspace.state_dir / "daemon.json").write_text('{"pid": "x", "port": "y", "token": 3}')
    status = fresh_workspace.run("status")
    assert status.code == 3 and status.err.startswith("error: no daemon is running"), status.err
    assert fresh_workspace.ok("stop").strip() == "no daemon is running"
    assert fresh_workspace.ok("url").strip() == "about:blank"
