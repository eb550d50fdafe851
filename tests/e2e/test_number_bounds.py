"""A number past its range never reaches the browser, whichever way it comes.

`mouse wheel 0 1e308` was taken as it was and wedged the tab's pointer input: every
click then timed out until a `goto`. The CLI refuses it before a daemon starts; a
chain's step and a plain request to the daemon's socket are refused the same way,
and the tab's pointer keeps working after the largest wheel the range allows.
"""

from __future__ import annotations

import json
import socket

import pytest

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

BUTTON = (
    "<div style='height:4000px'><button onclick=\"out.textContent='pressed'\">Press</button>"
    "<p id=out>not yet</p></div>"
)


@pytest.fixture
def page(workspace: Workspace, site: Site) -> str:
    url = site.page("/bounds/button", BUTTON)
    workspace.ok("goto", url)
    return url


def _post(ws: Workspace, request: dict[str, object]) -> dict[str, object]:
    """One request on the daemon's socket, as any caller but the CLI may send it."""
    info = ws.daemon_info()
    body = json.dumps(request).encode()
    head = (
        f"POST /command HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {info['token']}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(60)
        sock.connect(str(info["socket"]))
        sock.sendall(head.encode() + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return dict(json.loads(answer.partition(b"\r\n\r\n")[2]))


def _clicks(ws: Workspace) -> None:
    out = ws.ok("--timeout", "5000", "click", "button")
    assert "pressed" in out, out


def test_a_huge_wheel_exits_2_before_any_daemon_starts(fresh_workspace: Workspace) -> None:
    result = fresh_workspace.run("mouse", "wheel", "0", "1e308")
    assert result.code == 2 and "mouse DY must be from -1000000 to 1000000" in result.err, result.err
    assert not (fresh_workspace.root / ".refbrowse" / "daemon.json").exists()


@pytest.mark.parametrize(
    "args",
    [["wheel", "0", "1e308"], ["wheel", "-1e308", "0"], ["move", "1e308", "5"], ["wheel", "0", "inf"]],
    ids=" ".join,
)
def test_a_plain_request_to_the_daemon_is_held_to_the_same_range(
    workspace: Workspace, page: str, args: list[str]
) -> None:
    answer = _post(workspace, {"command": "mouse", "args": args, "json": True})
    assert answer["ok"] is False and answer["exit_code"] == 2, answer
    assert "must be from" in str(answer["error"]) or "takes a number" in str(answer["error"]), answer
    _clicks(workspace)


def test_a_chain_step_is_held_to_the_same_range(workspace: Workspace, page: str) -> None:
    result = workspace.run("chain", input='[["mouse", "wheel", "0", "1e308"], ["click", "button"]]')
    assert result.code == 2 and "mouse DY must be from" in result.out + result.err, result.out + result.err
    _clicks(workspace)


def test_the_largest_wheel_the_range_allows_leaves_the_pointer_working(
    workspace: Workspace, page: str
) -> None:
    workspace.ok("mouse", "wheel", "0", "1000000")
    workspace.ok("mouse", "wheel", "-1000000", "-1000000")
    workspace.ok("mouse", "move", "1000000", "1000000")
    workspace.ok("goto", page)  # the page back at its top, the button in view
    _clicks(workspace)
