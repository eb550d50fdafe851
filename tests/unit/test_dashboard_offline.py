"""The activity page, opened in a second, separate Chromium the way a person would open it.

`browse dashboard` prints a one-time link; the viewer browser (Playwright, not
the session's browser) opens it, and the tests drive the session through the
`browse` CLI and watch the page: rows in the feed, the refs tab, the live view
and takeover, the cookie picker on a real Chromium profile.
"""

from __future__ import annotations

import http.client
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from conftest import (
    CHROMIUM,
    FixtureHandler,
    Site,
    Workspace,
    home_with_chromium_profile,
)
from refbrowse.daemon.core.chromium import launch_flags
from refbrowse.daemon.services.activity.access import CODE_TTL_S, Access
from refbrowse.daemon.services.activity.feed import Event, Feed

LOGIN = """<title>login</title><form><input name=user aria-label=User>
<input type=password name=pass aria-label=Password><button type=button>Sign in</button></form>
<div id=host></div><script>
document.querySelector('#host').attachShadow({mode: 'open'}).innerHTML = '<input type=password name=code>';
</script>"""
FIELD = """<title>field</title><input id=x aria-label=Note
style="position:fixed;left:0;top:0;width:100vw;height:50vh;font-size:40px">"""
FORM = """<title>form</title><h1>Settings</h1><label><input type=checkbox checked> Email me</label>
<button disabled>Save</button><a href=/d/login>Log in</a>"""


def _set_cookies(h: FixtureHandler) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Set-Cookie", "sid=dash-cookie-value-91; Max-Age=86400; Path=/; HttpOnly")
    h.send_header("Set-Cookie", "theme=dark; Max-Age=86400; Path=/")
    h.end_headers()
    h.wfile.write(b"<p>cookies set</p>")


def _echo(h: FixtureHandler) -> None:
    h.reply(f"<pre id=cookies>{h.headers.get('Cookie') or '(none)'}</pre>")


@pytest.fixture(scope="module")
def app(site: Site) -> Site:
    site.page("/d/login", LOGIN)
    site.page("/d/field", FIELD)
    site.page("/d/form", FORM)
    site.route("/d/set", _set_cookies)
    site.route("/d/echo", _echo)
    return site


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory, app: Site) -> Path:
    """A home directory with a real Chromium profile that visited the fixture site."""
    return home_with_chromium_profile(tmp_path_factory, app.url("/d/set"))


AGENT = """import os, subprocess, sys, time
prompt = sys.argv[-1]
message = prompt.splitlines()[0]
print("got:", message, flush=True)
print(next(line for line in prompt.splitlines() if line.startswith("URL: ")), flush=True)
print("fenced:", "untrusted page content" in prompt, flush=True)
print("own folder:", os.path.basename(os.getcwd()).startswith("chat-"), flush=True)
if message == "sleep":
    print("sleeping", flush=True)
    time.sleep(600)
done = subprocess.run(["browse", "fill", "#x", message], capture_output=True, text=True)
print("fill exit", done.returncode, done.stderr, flush=True)
"""


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[Workspace]:
    agent = home / "agent.py"
    agent.write_text(AGENT)
    workspace = Workspace(tmp_path_factory.mktemp("ws"))
    workspace.env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), BROWSE_PERSIST="0")
    workspace.env.update(BROWSE_AGENT_CMD=f"{sys.executable} {agent}")
    yield workspace
    workspace.stop()


@pytest.fixture(scope="module")
def viewer() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=launch_flags())
        yield browser
        browser.close()


@pytest.fixture
def page(viewer: Browser) -> Iterator[Page]:
    context = viewer.new_context(viewport={"width": 1200, "height": 900})
    yield context.new_page()
    context.close()


def events(port: int, cookie: str, last_id: int, count: int) -> list[dict[str, object]]:
    """The first `count` events the feed sends after `last_id`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/events", headers={"Cookie": cookie, "Last-Event-ID": str(last_id)})
    response = conn.getresponse()
    found: list[dict[str, object]] = []
    while len(found) < count:
        line = response.readline().decode()
        if line.startswith("data: "):
            found.append(json.loads(line[6:]))
    conn.close()
    return found


# access


# feed


def test_the_history_keeps_the_latest_events_and_numbers_them_in_order() -> None:
    feed = Feed(history=3)
    for number in range(5):
        feed.publish(_event(f"'n{number}'"))
    assert [(e.id, e.args) for e in feed.since(0)] == [(3, ("'n2'",)), (4, ("'n3'",)), (5, ("'n4'",))]
    assert [e.id for e in feed.since(4)] == [5]


def _event(arg: str) -> Event:
    return Event(0, 0.0, "cli", "default", 1, "js", (arg,), {}, "", 1, True, 0, "", "")


# refs


# live view and takeover


# cookie picker


# chat


# access codes and shutdown


def test_a_code_works_once_and_not_after_it_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    access = Access()
    first, second = access.mint(), access.mint()
    assert access.redeem(first) is not None
    assert access.redeem(first) is None
    now = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: now + CODE_TTL_S + 1)
    assert access.redeem(second) is None
    assert access.redeem("made-up") is None
