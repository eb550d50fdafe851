"""What other local users could see of a session: the activity page's one-time
link never goes into a command line, and the chat's agent gets its prompt on
stdin (the page's URL and title fenced) and no credential of the daemon's."""

from __future__ import annotations

import html
import http.client
import json
import pwd
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, expect
from test_dashboard import cookie_of, page, viewer  # noqa: F401 - fixtures
from test_transport import NOBODY, as_root

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

RECORDER = """import json, sys
open(sys.argv[0] + ".json", "w").write(json.dumps(sys.argv[1:]))
"""


def _opened(ws: Workspace, tmp_path: Path) -> list[str]:
    """`dashboard --open` with a web browser that records its argv: that argv."""
    recorder = tmp_path / "browser.py"
    recorder.write_text(RECORDER)
    recorder.chmod(0o755)
    launcher = tmp_path / "web-browser"
    launcher.write_text(f'#!/bin/sh\nexec {sys.executable} {recorder} "$@"\n')
    launcher.chmod(0o755)
    out = ws.ok("dashboard", "--open", DISPLAY=":77", BROWSER=str(launcher))
    assert "Opened in the web browser." in out
    argv: list[str] = json.loads(Path(str(recorder) + ".json").read_text())
    assert out.splitlines()[0] == argv[-1]  # what is printed is the private page, not the code
    return argv


def test_dashboard_open_hands_the_link_over_without_argv(
    fresh_workspace: Workspace,
    tmp_path: Path,
    viewer: Browser,  # noqa: F811
) -> None:
    argv = _opened(fresh_workspace, tmp_path)
    assert "code=" not in " ".join(argv), argv
    given = Path(argv[-1].removeprefix("file://"))
    assert given.parent == fresh_workspace.state_dir and given.stat().st_mode & 0o077 == 0
    context = viewer.new_context()
    try:
        view = context.new_page()
        view.goto(argv[-1])
        expect(view.locator("#conn")).to_have_text("live")
    finally:
        context.close()


FETCH = """import http.client, sys, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
link = http.client.HTTPConnection(url.netloc, timeout=10)
link.request("GET", url.path + "?" + url.query)
print(link.getresponse().status)
"""


def _fetch_as(user: str, url: str) -> str:
    """The HTTP status `url` gets when `user` asks for it (a redirect not followed)."""
    argv = ["runuser", "-u", user, "--", "/usr/bin/python3", "-c", FETCH, url]
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, cwd="/").stdout.strip()


@as_root
def test_another_user_who_learns_the_code_of_an_opened_link_cannot_redeem_it(
    fresh_workspace: Workspace,
    tmp_path: Path,
    viewer: Browser,  # noqa: F811
) -> None:
    opened = _opened(fresh_workspace, tmp_path)[-1]
    forward = html.unescape(Path(opened.removeprefix("file://")).read_text())
    link = re.search(r'url=(http://127\.0\.0\.1:\d+/auth\?[^"]+)"', forward)
    assert link is not None, forward
    parts = urlsplit(link.group(1))
    query = parse_qs(parts.query)
    leaked = f"{parts.scheme}://{parts.netloc}/auth?code={query['code'][0]}&session=default"
    nobody = pwd.getpwuid(NOBODY).pw_name
    assert _fetch_as(nobody, leaked) == "401"
    assert _fetch_as(nobody, leaked + "&key=guessed") == "401"
    context = viewer.new_context()  # the user's own web browser still gets in with the page
    try:
        view = context.new_page()
        view.goto(opened)
        expect(view.locator("#conn")).to_have_text("live")
    finally:
        context.close()


AGENT = """import os, sys
prompt = sys.stdin.read()
print("in argv:", any("hello" in word for word in sys.argv[1:]))
start, url = prompt.find("<<<untrusted page content"), prompt.find("URL: ")
print("url fenced:", 0 <= start < url and prompt.find("Title: ") > url)
print("proxy secret:", any("proxy-secret" in v for v in os.environ.values()))
"""


def test_the_chat_agent_gets_its_prompt_on_stdin_fenced_and_no_proxy_secret(
    fresh_workspace: Workspace, site: Site, tmp_path: Path
) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    # The test site doubles as the proxy: a proxied request names the whole URL as its path.
    url = site.page("/chat-title", "<title>T</title><p>chat</p>")
    site.page(url, "<title>T</title><p>chat</p>")
    proxy = f"http://me:proxy-secret@127.0.0.1:{site.server.server_address[1]}"
    fresh_workspace.env.update(BROWSE_AGENT_CMD=f"{sys.executable} {agent}", BROWSE_PROXY=proxy)
    fresh_workspace.ok("goto", url)
    port, cookie = cookie_of(fresh_workspace)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    body = json.dumps({"message": "hello agent", "session": "default"})
    conn.request(
        "POST", "/api/chat", body=body, headers={"Cookie": cookie, "Content-Type": "application/json"}
    )
    reply = conn.getresponse().read().decode()
    for line in ("in argv: False", "url fenced: True", "proxy secret: False", "[the agent exited with 0]"):
        assert line in reply, reply
