"""Remote browsers and the proxy, each against a real server on 127.0.0.1.

- a second Chromium started with `--remote-debugging-port` (`BROWSE_CDP_URL`, `connect --cdp`);
- `playwright run-server`, from the pip package (`BROWSE_WS_ENDPOINT`);
- a small forward proxy that records what goes through it (`BROWSE_PROXY`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from conftest import FixtureHandler, Site, Workspace, _descendants, strip_fence
from killing import wait_for_exit
from refbrowse.daemon.core.browser.chromium import find_chromium, launch_flags

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SECRET = "sekrit-0451"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RemoteChromium:
    """A Chromium of its own, with remote debugging on a fixed port of 127.0.0.1."""

    def __init__(self, profile: Path) -> None:
        self.port = free_port()
        self.profile = profile
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        argv = [find_chromium(), "--headless=new", f"--remote-debugging-port={self.port}"]
        argv += ["--remote-debugging-address=127.0.0.1", f"--user-data-dir={self.profile}", *launch_flags()]
        self.process = subprocess.Popen(
            [*argv, "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(200):
            if self.answers():
                return
            time.sleep(0.05)
        raise AssertionError("the remote Chromium did not open its debugging port")

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/version", timeout=2) as reply:
                return "Browser" in json.loads(reply.read())
        except OSError:
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={SECRET}"


@pytest.fixture
def remote(tmp_path: Path) -> Iterator[RemoteChromium]:
    chromium = RemoteChromium(tmp_path / "remote-profile")
    chromium.start()
    yield chromium
    chromium.kill()


def login_pages(site: Site) -> str:
    def do_login(h: FixtureHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        user = h.rfile.read(length).decode().partition("user=")[2] or "nobody"
        h.redirect("/rm/home", f"who={user}; Path=/")

    def home(h: FixtureHandler) -> None:
        cookie = h.headers.get("Cookie") or ""
        who = cookie.partition("who=")[2].split(";")[0] or "stranger"
        log = f"<script>console.log('home of ' + {json.dumps(who)})</script>"
        h.reply(f"<title>Home</title><h1>Hello {who}</h1>{log}")

    site.route("/rm/do-login", do_login)
    site.route("/rm/home", home)
    return site.page(
        "/rm/login",
        "<title>Login</title><form method=post action=/rm/do-login>"
        "<input name=user aria-label=User><button>Sign in</button></form>",
    )


def sign_in(ws: Workspace, site: Site, user: str, session: str = "default") -> str:
    ws.ok("--session", session, "goto", login_pages(site))
    snap = ws.ok("--session", session, "snapshot", "-i")
    field = re.search(r'textbox "User" (@e\d+)', snap)
    button = re.search(r'button "Sign in" (@e\d+)', snap)
    assert field and button, snap
    ws.ok("--session", session, "fill", field.group(1), user)
    ws.ok("--session", session, "click", button.group(1))
    return strip_fence(ws.ok("--session", session, "text"))


def test_a_chromium_with_remote_debugging_serves_tabs_refs_logins_and_logs(
    fresh_workspace: Workspace, site: Site, remote: RemoteChromium
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_CDP_URL"] = remote.url
    assert "Hello alice" in sign_in(ws, site, "alice")
    assert "[log] home of alice" in ws.ok("console")
    ws.ok("newtab", site.url("/rm/home"))
    assert len(strip_fence(ws.ok("tabs")).splitlines()) == 2
    status = ws.ok("status")
    assert f"mode: remote (cdp http://127.0.0.1:{remote.port}/?token=***)" in status
    assert SECRET not in status
    pid = ws.daemon_info()["pid"]
    assert isinstance(pid, int)
    ws.ok("stop")
    assert remote.process is not None and remote.process.poll() is None, (
        "stop left the remote browser running"
    )
    assert remote.answers()
    assert SECRET not in (ws.state_dir / "daemon.log").read_text()
    ws.ok("goto", site.url("/rm/home"))
    assert "Hello alice" in strip_fence(ws.ok("text")), "a new daemon reconnects, with the saved login"


def test_connect_cdp_moves_a_running_session_to_the_remote_browser_and_back(
    fresh_workspace: Workspace, site: Site, remote: RemoteChromium
) -> None:
    ws = fresh_workspace
    assert "Hello bob" in sign_in(ws, site, "bob")
    out = ws.ok("connect", "--cdp", remote.url)
    assert "Now remote (cdp" in out and SECRET not in out and "1 tab(s) carried over" in out
    assert "mode: remote" in ws.ok("status")
    assert "Hello bob" in strip_fence(ws.ok("text")), "the login went along to the remote browser"
    targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{remote.port}/json/list").read())
    assert any(t["url"].endswith("/rm/home") for t in targets), "the tab is open in the remote browser"
    ws.ok("js", "document.cookie = 'remote=1; path=/'")
    out = ws.ok("disconnect")
    assert "Now headless" in out
    assert "remote=1" in strip_fence(ws.ok("js", "document.cookie")), "and came back with what changed there"
    assert remote.answers()


def test_a_remote_that_drops_mid_command_exits_3_and_the_next_command_reconnects(
    fresh_workspace: Workspace, site: Site, remote: RemoteChromium
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_CDP_URL"] = remote.url
    ws.ok("goto", site.page("/rm/slow", "<title>Slow</title>"))
    running = ws.start("js", "await new Promise(r => setTimeout(r, 5000))")
    time.sleep(1.5)
    remote.kill()
    out, err = running.communicate(timeout=90)
    assert running.returncode == 3, (out, err)
    assert "remote browser" in err and f"127.0.0.1:{remote.port}" in err and SECRET not in err
    remote.start()
    assert "Navigated" in ws.ok("goto", site.url("/rm/slow"))
    assert "mode: remote" in ws.ok("status")


def _redirect(h: FixtureHandler) -> None:
    h.redirect(parse_qs(urlsplit(h.path).query)["to"][0])


def test_a_remote_browser_holds_the_host_policy_at_every_redirect_hop_and_websocket(
    fresh_workspace: Workspace, site: Site, remote: RemoteChromium
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    outside_hits: list[str] = []
    inside_hits: list[str] = []
    site.route("/outside", lambda h: (outside_hits.append(h.path), h.reply("outside")))
    site.route("/inside", lambda h: (inside_hits.append(h.path), h.reply("inside")))
    site.route("/redir", _redirect)
    port = site.server.server_address[1]
    # Chromium resolves every *.localhost name to this machine: the same server, another host.
    outside, inside = f"http://evil.localhost:{port}/outside", f"http://127.0.0.1:{port}/inside"
    sockets = "".join(f"new WebSocket('{u.replace('http:', 'ws:')}?ws');" for u in (outside, inside))
    framed = site.page("/rm/framed", f"<img src='/redir?to={outside}?frame'><script>{sockets}</script>")
    html = (
        f"<img src='/redir?to={outside}?img'><img src='/redir?to={inside}?img'>"
        f"<a id=go href='/redir?to={outside}?link'>go</a>"
        f"<a id=pop target=_blank href='/redir?to={outside}?popup'>pop</a>"
        f"<iframe src='{framed.replace('127.0.0.1', 'localhost')}'></iframe><script>{sockets}</script>"
    )
    url = site.page("/rm/hops", html)
    ws.ok("goto", "about:blank")
    assert "Now remote (cdp" in ws.ok("connect", "--cdp", remote.url)
    ws.ok("goto", url)
    ws.run("click", "#go")
    ws.ok("goto", url)
    ws.run("click", "#pop")
    moved = ws.run("goto", site.url(f"/redir?to={outside}?goto"))
    assert moved.code == 1 and "BROWSE_ALLOWED_HOSTS" in moved.err, (moved.out, moved.err)
    ws.ok("goto", site.url(f"/redir?to={inside}?goto"))
    assert "/inside?goto" in ws.ok("url"), "a redirect within the policy still goes through"
    ws.ok("goto", url)
    assert outside_hits == [], "a hop or a WebSocket reached a host outside BROWSE_ALLOWED_HOSTS"
    assert {"/inside?img", "/inside?ws", "/inside?goto"} <= set(inside_hits), inside_hits


@pytest.fixture
def playwright_server() -> Iterator[str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "playwright", "run-server", "--port", "0", "--host", "127.0.0.1", "--unsafe"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # the Python wrapper runs node as a child: stop the whole group
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"Listening on (ws://\S+)", line)
    assert found, line
    # The server launches browsers itself: --unsafe lets the client name the executable and flags.
    options = {"executablePath": find_chromium(), "args": launch_flags()}
    yield f"{found.group(1)}?launch-options={quote(json.dumps(options))}&token={SECRET}"
    os.killpg(server.pid, signal.SIGKILL)  # node outlives a SIGTERM to its wrapper
    server.wait(10)


def test_a_playwright_server_gives_each_session_its_own_context(
    fresh_workspace: Workspace, site: Site, playwright_server: str
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_WS_ENDPOINT"] = playwright_server
    assert "Hello carol" in sign_in(ws, site, "carol", session="a")
    ws.ok("--session", "b", "goto", site.url("/rm/home"))
    assert "Hello stranger" in strip_fence(ws.ok("--session", "b", "text")), "session b has its own cookies"
    assert "Hello carol" in strip_fence(ws.ok("--session", "a", "text"))
    status = ws.ok("status")
    assert "mode: remote (playwright server ws://127.0.0.1:" in status and "token=***" in status
    assert SECRET not in status
    daemon = ws.daemon_info()["pid"]
    assert not [p for p in _descendants(int(str(daemon))) if b"chrom" in _cmdline(p)], "no local browser"


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


class RecordingProxy(BaseHTTPRequestHandler):
    """A forward proxy that answers every request itself and remembers its request line."""

    seen: list[str] = []  # noqa: RUF012 - one list shared by the handler's threads

    def do_GET(self) -> None:
        self.seen.append(f"{self.command} {self.path}")
        body = f"<title>Proxied</title><p>via the proxy: {self.path}</p>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), RecordingProxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    RecordingProxy.seen.clear()
    yield server
    server.shutdown()


def test_browse_proxy_sends_the_browsers_requests_through_the_proxy(
    fresh_workspace: Workspace, proxy: ThreadingHTTPServer
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_PROXY"] = f"http://127.0.0.1:{proxy.server_address[1]}"
    # A name no DNS knows: only the proxy can answer it.
    assert "(200)" in ws.ok("goto", "http://shop.example.invalid/item?id=7")
    assert "via the proxy: http://shop.example.invalid/item?id=7" in strip_fence(ws.ok("text"))
    assert "GET http://shop.example.invalid/item?id=7" in RecordingProxy.seen


def test_a_remote_chosen_by_connect_outlives_a_drop_until_disconnect_or_stop(
    fresh_workspace: Workspace, site: Site, remote: RemoteChromium
) -> None:
    ws = fresh_workspace
    assert "Hello dora" in sign_in(ws, site, "dora")
    ws.ok("connect", "--cdp", remote.url)
    daemon = int(str(ws.daemon_info()["pid"]))
    remote.kill()
    # the daemon notices the drop by itself (a command that came first would read what it knew)
    wait_for_exit(daemon, timeout=15)
    dropped = ws.run("url")
    assert dropped.code == 3 and "cannot reach the remote browser" in dropped.err
    assert "browse disconnect" in dropped.err and SECRET not in dropped.err
    remote.start()
    ws.ok("goto", site.url("/rm/home"))
    assert "mode: remote" in ws.ok("status"), "the next command went back to the same remote browser"
    assert "Hello dora" in strip_fence(ws.ok("text"))

    remote.kill()
    left = ws.run("disconnect")
    assert left.code == 0 and "cannot be reached" in left.out, left.err
    ws.ok("url")
    assert "mode: headless" in ws.ok("status"), "disconnect let go of the unreachable remote"

    remote.start()
    ws.ok("connect", "--cdp", remote.url)
    ws.ok("stop")
    ws.ok("url")
    assert "mode: headless" in ws.ok("status"), "a browser chosen at run time lasts until stop"
    assert not (ws.state_dir / "browser.json").exists()


@pytest.mark.skipif(
    not all(map(shutil.which, ("Xvfb", "xdotool"))), reason="Xvfb not installed (`make xvfb` installs it)"
)
def test_a_handoff_from_a_remote_browser_resumes_on_it(
    fresh_workspace: Workspace, site: Site, remote: RemoteChromium
) -> None:
    ws = fresh_workspace
    ws.env.pop("DISPLAY", None)
    ws.env["BROWSE_CDP_URL"] = remote.url
    login_pages(site)
    ws.ok("goto", site.url("/rm/home"))
    out = ws.ok("handoff", "sign in")
    assert "Tell the person" in out and "mode: headed" in ws.ok("status")
    ws.ok("js", "document.cookie = 'who=erin; path=/'")  # what the person did, as far as the site can tell
    resumed = ws.ok("resume")
    assert "Resumed: remote (cdp http://127.0.0.1:" in resumed and SECRET not in resumed
    ws.ok("reload")
    assert "Hello erin" in strip_fence(ws.ok("text")), "the remote browser has what the person did"


def test_a_file_page_opened_with_allow_file_stays_open_across_connect_and_disconnect(
    fresh_workspace: Workspace, remote: RemoteChromium
) -> None:
    ws = fresh_workspace
    page = ws.root / "notes.html"
    page.write_text("<title>Notes</title><h1>My notes</h1>")
    ws.ok("goto", "--allow-file", page.as_uri())
    ws.ok("connect", "--cdp", remote.url)
    assert ws.ok("url").strip() == page.as_uri(), "the grant went along to the remote browser"
    assert "My notes" in strip_fence(ws.ok("text"))
    ws.ok("disconnect")
    assert ws.ok("url").strip() == page.as_uri(), "and came back with the tab"
