"""The activity page's API against what any signed-in local program may post; the chat's agent in bounds.

An agent that floods its output and then sleeps is stopped with everything it
started once the page that asked disconnects, and no second run starts beside it;
what it prints reaches the page up to a bound. Bodies that are not JSON objects,
and a session that is not a name, get a 400 that says so. The agent's environment
has no MCP token. `dashboard --open` keeps one link page in the state directory.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import Workspace
from refbrowse.daemon.services.activity.chat import MAX_SHOWN

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

AGENT = """import os, subprocess, sys, time
prompt = sys.stdin.read()
message = prompt.splitlines()[0]
print("token:", os.environ.get("BROWSE_MCP_TOKEN", "(none)"), flush=True)
if message == "flood and sleep":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    open(os.environ["AGENT_PIDS"], "w").write(f"{os.getpid()} {child.pid}")
    sys.stdout.write("x" * 20_000_000)
    sys.stdout.flush()
    time.sleep(600)
if message == "flood":
    sys.stdout.write("y" * 5_000_000)
"""
TOKEN = "mcp-token-must-not-reach-the-agent-51"


def _with_agent(ws: Workspace, folder: Path) -> Workspace:
    agent = folder / "agent.py"
    agent.write_text(AGENT)
    ws.env.update(
        BROWSE_AGENT_CMD=f"{sys.executable} {agent}", BROWSE_MCP_TOKEN=TOKEN, AGENT_PIDS=str(folder / "pids")
    )
    return ws


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """One daemon with the agent for the module: each test asks it through a page of its own."""
    folder = tmp_path_factory.mktemp("chat")
    ws = _with_agent(Workspace(folder / "ws"), folder)
    yield ws
    ws.stop()


@pytest.fixture
def own_ws(fresh_workspace: Workspace, tmp_path: Path) -> Workspace:
    """A daemon of the test's own: it is started with the test's own environment."""
    return _with_agent(fresh_workspace, tmp_path)


class Api:
    """The activity page's API as a signed-in client calls it."""

    def __init__(self, ws: Workspace) -> None:
        link = urlsplit(ws.ok("dashboard").splitlines()[0])
        assert link.port is not None
        self.port = link.port
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", f"{link.path}?{link.query}")
        self.cookie = conn.getresponse().getheader("Set-Cookie", "").split(";")[0]

    def post(self, path: str, body: bytes) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": self.cookie, "Content-Type": "application/json"}
        conn.request("POST", path, body, headers=headers)
        return conn, conn.getresponse()

    def answer(self, path: str, body: bytes) -> tuple[int, str]:
        conn, response = self.post(path, body)
        try:
            return response.status, response.read().decode()
        finally:
            conn.close()

    def sessions(self) -> list[str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", "/api/sessions", headers={"Cookie": self.cookie})
        return [s["name"] for s in json.loads(conn.getresponse().read())["sessions"]]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.2)
    return False


def test_an_agent_is_stopped_with_its_children_when_the_page_goes(ws: Workspace) -> None:
    api = Api(ws)
    conn, response = api.post("/api/chat", json.dumps({"message": "flood and sleep"}).encode())
    assert response.status == 200 and response.read(1000)
    pids = [int(pid) for pid in Path(ws.env["AGENT_PIDS"]).read_text().split()]
    status, said = api.answer("/api/chat", json.dumps({"message": "beside it"}).encode())
    assert status == 409 and "still working" in said
    conn.close()  # the person closed the page
    try:
        assert _gone_within(pids, 30), "the agent and its child outlived the page that asked"
        status, said = api.answer("/api/chat", json.dumps({"message": "next"}).encode())
        for _ in range(50):  # the run that was cut off ends just after its processes
            if status != 409:
                break
            time.sleep(0.2)
            status, said = api.answer("/api/chat", json.dumps({"message": "next"}).encode())
        assert status == 200 and "[the agent exited with 0]" in said
    finally:
        for pid in pids:
            if _alive(pid):
                os.kill(pid, 9)


def test_what_the_agent_prints_reaches_the_page_up_to_a_bound(ws: Workspace) -> None:
    status, said = Api(ws).answer("/api/chat", json.dumps({"message": "flood"}).encode())
    assert status == 200 and "[the agent exited with 0]" in said
    assert MAX_SHOWN - 100 < said.count("y") <= MAX_SHOWN and "the rest is not shown" in said


def test_the_agent_has_no_mcp_token(ws: Workspace) -> None:
    status, said = Api(ws).answer("/api/chat", json.dumps({"message": "hello"}).encode())
    assert status == 200 and "token: (none)" in said and TOKEN not in said


BAD_BODIES = (b"not json", b"\xff\xfe{", b"[1, 2]", b'"text"')
POSTED = ("/api/chat", "/api/cookies/import", "/api/navigate", "/api/consent/answer", "/api/takeover")


def test_bodies_that_are_not_json_objects_get_a_400_that_says_so(ws: Workspace) -> None:
    api = Api(ws)
    for path in POSTED:
        for body in BAD_BODIES:
            status, said = api.answer(path, body)
            assert status == 400, (path, body, status, said)
            assert json.loads(said)["error"].startswith("the body "), (path, body, said)
    assert "malformed or broken request" not in (ws.state_dir / "daemon.log").read_text()


def test_a_session_that_is_not_a_name_gets_a_400(ws: Workspace) -> None:
    api = Api(ws)
    for path, body in (
        ("/api/chat", {"message": "hi", "session": {"a": 1}}),
        ("/api/chat", {"message": "hi", "session": ["x"]}),
        ("/api/chat", {"message": "hi", "session": "line\nbreak"}),
        ("/api/cookies/import", {"browser": "chromium", "domains": ["a.test"], "session": {"a": 1}}),
        ("/api/navigate", {"action": "goto", "url": "about:blank", "session": 7}),
    ):
        status, said = api.answer(path, json.dumps(body).encode())
        assert status == 400 and "'session' must be a session's name" in said, (path, body, said)
    assert set(api.sessions()) <= {"default"}


def test_dashboard_open_keeps_one_link_page(own_ws: Workspace, tmp_path: Path) -> None:
    ws = own_ws
    launcher = tmp_path / "web-browser"
    launcher.write_text("#!/bin/sh\nexit 0\n")
    launcher.chmod(0o755)
    ws.env.update(DISPLAY=":77", BROWSER=str(launcher))  # the daemon's: it opens the web browser
    ws.ok("url")
    (ws.state_dir / "dashboard-left1234.html").write_text("an old link page")
    for _ in range(3):
        assert "Opened in the web browser." in ws.ok("dashboard", "--open")
    pages = sorted(p.name for p in ws.state_dir.iterdir() if p.name.startswith("dashboard"))
    assert pages == ["dashboard.html"]
    assert (ws.state_dir / "dashboard.html").stat().st_mode & 0o077 == 0
