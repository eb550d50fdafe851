"""The daemon's opt-in TCP port answers only this machine's CLI: token, Host and
Origin checks; private files. (The Unix socket's checks: test_transport.)"""

from __future__ import annotations

import http.client
import json
import stat

import pytest

from conftest import Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _request(ws: Workspace, path: str, headers: dict[str, str], method: str = "POST") -> tuple[int, bytes]:
    info = ws.daemon_info()
    conn = http.client.HTTPConnection("127.0.0.1", int(str(info["port"])), timeout=10)
    body = json.dumps({"command": "url", "args": [], "flags": {}, "json": True}) if method == "POST" else None
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


@pytest.fixture(scope="module")
def running(workspace: Workspace) -> Workspace:
    workspace.ok("goto", "about:blank", BROWSE_PORT="0")  # TCP as well as the Unix socket
    return workspace


def _host(ws: Workspace) -> str:
    return f"127.0.0.1:{ws.daemon_info()['port']}"


def test_the_cli_token_is_accepted(running: Workspace) -> None:
    token = running.daemon_info()["token"]
    status, body = _request(running, "/command", {"Host": _host(running), "Authorization": f"Bearer {token}"})
    assert status == 200 and json.loads(body)["output"] == "about:blank"


@pytest.mark.parametrize("auth", [None, "Bearer wrong-token", "Basic abc"])
def test_a_missing_or_wrong_token_is_refused(running: Workspace, auth: str | None) -> None:
    headers = {"Host": _host(running)}
    if auth:
        headers["Authorization"] = auth
    status, _ = _request(running, "/command", headers)
    assert status == 401


@pytest.mark.parametrize("host", ["evil.example:80", "127.0.0.1", "localhost:1"])
def test_a_foreign_host_header_is_refused(running: Workspace, host: str) -> None:
    token = running.daemon_info()["token"]
    status, _ = _request(running, "/command", {"Host": host, "Authorization": f"Bearer {token}"})
    assert status == 403


def test_a_request_with_an_origin_is_refused_even_with_the_token(running: Workspace) -> None:
    token = running.daemon_info()["token"]
    headers = {"Host": _host(running), "Authorization": f"Bearer {token}", "Origin": "http://127.0.0.1"}
    assert _request(running, "/command", headers)[0] == 403
    assert _request(running, "/health", {"Host": _host(running), "Origin": "null"}, "GET")[0] == 403


def test_health_needs_no_token_and_reveals_none(running: Workspace) -> None:
    info = running.daemon_info()
    status, body = _request(running, "/health", {"Host": f"localhost:{info['port']}"}, "GET")
    assert status == 200
    assert str(info["token"]) not in body.decode()


def test_state_dir_and_daemon_file_are_private(running: Workspace) -> None:
    assert stat.S_IMODE(running.state_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((running.state_dir / "daemon.json").stat().st_mode) == 0o600
    assert (running.state_dir / ".gitignore").read_text().strip() == "*"
