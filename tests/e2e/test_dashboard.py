"""The activity page, opened in a second, separate Chromium the way a person would open it.

`browse dashboard` prints a one-time link; the viewer browser (Playwright, not
the session's browser) opens it, and the tests drive the session through the
`browse` CLI and watch the page: rows in the feed, the refs tab, the live view
and takeover, the cookie picker on a real Chromium profile.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from mcp import Client, StdioServerParameters
from playwright.sync_api import Browser, Page, expect, sync_playwright

from conftest import (
    BROWSE,
    CHROMIUM,
    FixtureHandler,
    Site,
    Workspace,
    home_with_chromium_profile,
    needs_display,
    strip_fence,
)
from refbrowse.daemon.core.browser.chromium import launch_flags

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PASSWORD = "pw-Dash-77-secret"
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
prompt = sys.stdin.read()
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


def dashboard_url(ws: Workspace) -> str:
    return ws.ok("dashboard").splitlines()[0]


def open_dashboard(ws: Workspace, page: Page) -> None:
    page.goto(dashboard_url(ws))
    expect(page.locator("#conn")).to_have_text("live")


def cookie_of(ws: Workspace) -> tuple[int, str]:
    """Sign in as the page does; the listener's port and the cookie header."""
    url = urlsplit(dashboard_url(ws))
    conn = http.client.HTTPConnection("127.0.0.1", url.port, timeout=30)
    conn.request("GET", f"{url.path}?{url.query}")
    response = conn.getresponse()
    assert response.status == 303
    cookie = response.getheader("Set-Cookie", "").split(";")[0]
    assert url.port is not None
    return url.port, cookie


def get(port: int, path: str, **headers: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    return response.status, response.read().decode()


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


def events_until(port: int, cookie: str, last_id: int, arg: str) -> list[dict[str, object]]:
    """Events after `last_id`, up to the first with `arg` among its arguments."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/events", headers={"Cookie": cookie, "Last-Event-ID": str(last_id)})
    response = conn.getresponse()
    found: list[dict[str, object]] = []
    while not found or arg not in found[-1]["args"]:  # type: ignore[operator]
        line = response.readline().decode()
        assert line, f"the feed ended before an event with {arg}"
        if line.startswith("data: "):
            found.append(json.loads(line[6:]))
    conn.close()
    return found


# access


def test_the_link_works_once_and_leaves_an_httponly_strict_cookie(ws: Workspace, page: Page) -> None:
    url = dashboard_url(ws)
    assert url.startswith("http://127.0.0.1:") and "code=" in url
    page.goto(url)
    assert "code=" not in page.url
    cookies = page.context.cookies()
    assert [(c["httpOnly"], c["sameSite"]) for c in cookies] == [(True, "Strict")]
    token = str(ws.daemon_info()["token"])
    assert token not in url and token not in page.content()
    again = page.context.browser.new_context().new_page()  # type: ignore[union-attr]
    response = again.goto(url)
    assert response is not None and response.status == 401
    assert "used already or has expired" in again.content()


def test_the_page_api_refuses_foreign_origins_hosts_and_strangers(ws: Workspace) -> None:
    port, cookie = cookie_of(ws)
    assert get(port, "/api/refs", Cookie=cookie)[0] == 200
    status, body = get(port, "/api/refs", Cookie=cookie, Origin="http://evil.example")
    assert status == 403 and "Origin" in body
    status, body = get(port, "/api/refs", Cookie=cookie, Host=f"rebound.example:{port}")
    assert status == 403 and "Host" in body
    assert get(port, "/api/refs")[0] == 401
    assert get(port, "/api/refs", Cookie="refbrowse_activity=guessed")[0] == 401


def test_the_token_never_appears_in_the_daemon_log(ws: Workspace) -> None:
    dashboard_url(ws)
    token = str(ws.daemon_info()["token"])
    assert token not in (ws.state_dir / "daemon.log").read_text()


# feed


def test_commands_appear_live_with_their_outcome_and_hint(ws: Workspace, app: Site, page: Page) -> None:
    open_dashboard(ws, page)
    ws.ok("goto", app.url("/d/form"))
    assert ws.run("click", "#no-such-button", "--timeout", "500").code != 0
    rows = page.locator("#rows tr")
    goto = rows.filter(has=page.locator("td.command", has_text="goto"))
    expect(goto.first.locator("td.args")).to_have_text(app.url("/d/form"))
    expect(goto.first).to_have_class("ok")
    failed = rows.filter(has=page.locator("td.command", has_text="click")).first
    expect(failed).to_have_class("fail")
    expect(failed.locator("td.outcome")).to_contain_text("#no-such-button")
    expect(failed.locator("td.session")).to_have_text("default")


def test_chain_steps_appear_under_their_chain(ws: Workspace, app: Site, page: Page) -> None:
    open_dashboard(ws, page)
    steps = json.dumps([["goto", app.url("/d/form")], ["url"]])
    ws.ok("chain", input=steps)
    step = page.locator("#rows tr.step", has=page.locator("td.command", has_text="url"))
    expect(step.first.locator("td.client")).to_have_text("chain")
    expect(page.locator("#rows tr:not(.step) td.command", has_text="chain").first).to_be_visible()


def test_a_password_fill_is_redacted_and_other_fills_are_not(ws: Workspace, app: Site, page: Page) -> None:
    open_dashboard(ws, page)
    ws.ok("goto", app.url("/d/login"))
    ws.ok("fill", "input[name=user]", "alice")
    ws.ok("fill", "form input[type=password]", PASSWORD, "--allow-argv-secret")
    ws.ok("fill", "input[name=code]", PASSWORD, "--allow-argv-secret")  # in a shadow root
    assert ws.run("fill", "form input[type=password]", PASSWORD).code == 2  # refused, and redacted too
    assert ws.run("fill", "#no-such-field", PASSWORD, "--timeout", "500").code != 0
    shown = page.locator("#rows tr td.args")
    for args in (
        "input[name=user] alice",
        '"form input[type=password]" "(redacted)" --allow-argv-secret',
        '"form input[type=password]" "(redacted)"',
        'input[name=code] "(redacted)" --allow-argv-secret',
        '#no-such-field "(redacted)"',
    ):
        expect(shown.filter(has_text=re.compile(f"^{re.escape(args)}$"))).to_have_count(1)
    port, cookie = cookie_of(ws)
    assert PASSWORD not in json.dumps(events_until(port, cookie, 0, "#no-such-field"))
    assert PASSWORD not in page.content()


def test_a_cookie_value_and_clipboard_text_never_reach_the_feed(ws: Workspace, app: Site) -> None:
    port, cookie = cookie_of(ws)
    ws.ok("goto", app.url("/d/form"))
    ws.ok("cookies", "set", "sid", PASSWORD)
    ws.ok("clipboard", "write", PASSWORD)
    found = events_until(port, cookie, 0, "write")
    assert ["set", "sid", "(redacted)"] in [event["args"] for event in found]
    assert PASSWORD not in json.dumps(found)


def test_a_reconnecting_page_gets_only_what_it_missed(ws: Workspace) -> None:
    port, cookie = cookie_of(ws)
    ws.ok("js", "'mark-1'")
    ws.ok("js", "'mark-2'")
    history = events_until(port, cookie, 0, "'mark-2'")
    mark = next(e for e in history if e["args"] == ["'mark-1'"])
    [after] = events(port, cookie, int(str(mark["id"])), 1)
    assert after["args"] == ["'mark-2'"] and after["id"] == int(str(mark["id"])) + 1


# refs


def test_the_refs_tab_lists_the_latest_snapshot_and_searches_it(ws: Workspace, app: Site, page: Page) -> None:
    ws.ok("goto", app.url("/d/form"))
    ws.ok("snapshot", "-i")
    open_dashboard(ws, page)
    page.click("nav button[data-pane=refs]")
    refs = page.locator("#reflist li")
    expect(refs.filter(has_text='checkbox "Email me"')).to_contain_text("[checked]")
    expect(refs.filter(has_text='button "Save"')).to_contain_text("[disabled]")
    page.fill("#refsearch", "log in")
    expect(refs.filter(visible=True)).to_have_count(1)
    expect(refs.first).to_contain_text('link "Log in"')
    expect(page.locator("#screen")).to_have_attribute("src", re.compile("^data:image/jpeg;base64,"))
    refs.first.hover()
    outline = page.locator("#outline")
    expect(outline).to_be_visible()
    box = outline.bounding_box()
    assert box is not None and box["width"] > 5 and box["height"] > 5


# live view and takeover


def test_a_person_takes_over_types_into_the_page_and_the_agent_waits(
    ws: Workspace, app: Site, page: Page
) -> None:
    ws.ok("goto", app.url("/d/field"))
    open_dashboard(ws, page)
    page.click("nav button[data-pane=live]")
    screen = page.locator("#screen")
    expect(screen).to_have_attribute("src", re.compile("^data:image/jpeg;base64,"))
    page.check("#takeover")
    expect(page.locator("#control")).to_contain_text("You have the browser")
    refused = ws.run("click", "#x")
    assert refused.code == 3
    assert "a person has control" in refused.err and "browse resume" in refused.err
    with page.expect_response(lambda r: r.url.endswith("/api/input")):
        screen.click(position={"x": 100, "y": 60})
    for key in "hi!":
        with page.expect_response(lambda r: r.url.endswith("/api/input")):
            page.keyboard.press(key)
    resumed = ws.ok("resume")
    assert 'textbox "Note"' in resumed
    assert strip_fence(ws.ok("js", "document.querySelector('#x').value")).strip() == "hi!"
    expect(page.locator("#takeover")).not_to_be_checked()


TWO_FIELDS = """<title>two</title><style>input{position:fixed;left:0;width:100vw;height:50vh}</style>
<input id=a aria-label=First style="top:0"><input id=b aria-label=Second style="top:50vh">"""


def test_keys_typed_as_a_click_lands_follow_it_and_resume_after_letting_go_is_no_error(
    ws: Workspace, app: Site, page: Page
) -> None:
    ws.ok("goto", app.page("/d/two", TWO_FIELDS))
    ws.ok("click", "#a")  # the focus is in the first field
    open_dashboard(ws, page)
    page.click("nav button[data-pane=live]")
    screen = page.locator("#screen")
    expect(screen).to_have_attribute("src", re.compile("^data:image/jpeg;base64,"))
    page.check("#takeover")
    sent: list[int] = []
    page.on("response", lambda r: sent.append(r.status) if r.url.endswith("/api/input") else None)
    box = screen.bounding_box()
    assert box is not None
    screen.click(position={"x": box["width"] / 2, "y": box["height"] * 3 / 4})  # into the second field
    page.keyboard.type("hi")  # at once, without waiting for the click's answer
    for _ in range(400):
        if len(sent) >= 3:
            break
        page.wait_for_timeout(50)
    assert sent == [200, 200, 200], sent
    with page.expect_response(lambda r: r.url.endswith("/api/takeover")):
        page.uncheck("#takeover")  # the person gives control back on the page
    resumed = ws.ok("resume")
    assert "gave control back on the activity page" in resumed, resumed
    values = strip_fence(ws.ok("js", "[a.value, b.value].join('|')")).strip()
    assert values == "|hi", "every key went to the field the click chose"
    assert ws.run("resume").code == 2, "and a second resume has nothing to take back"


def test_input_is_refused_until_a_person_takes_over(ws: Workspace) -> None:
    port, cookie = cookie_of(ws)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps({"kind": "key", "key": "a"})
    conn.request("POST", "/api/input", body, headers={"Cookie": cookie, "Content-Type": "application/json"})
    assert conn.getresponse().status == 409


# cookie picker


def test_the_cookie_picker_shows_domains_and_imports_the_chosen_ones(
    ws: Workspace, app: Site, page: Page
) -> None:
    ws.ok("state", "clear")
    open_dashboard(ws, page)
    page.click("nav button[data-pane=cookies]")
    expect(page.locator("#browser")).to_have_value("chromium")
    expect(page.locator("#profile")).to_have_value("Default")
    page.click("#listdomains")
    domain = page.locator("#domains li", has_text="127.0.0.1")
    expect(domain).to_have_text("127.0.0.1 (2)")
    assert "dash-cookie-value-91" not in page.content()
    domain.locator("input").check()
    page.click("#import")
    expect(page.locator("#imported")).to_contain_text("Imported 2 cookies for 127.0.0.1 from Chromium")
    ws.ok("goto", app.url("/d/echo"))
    assert "sid=dash-cookie-value-91" in ws.ok("text", "#cookies")
    imported = page.locator("#rows tr", has=page.locator("td.command", has_text="cookie-import-browser"))
    expect(imported.first).to_have_class("ok")


def test_handoff_without_a_display_gives_the_page_to_a_person_on_the_activity_page(
    fresh_workspace: Workspace, app: Site, page: Page
) -> None:
    ws = fresh_workspace
    # No DISPLAY and no Xvfb on PATH: a visible window cannot be made here.
    ws.env = {k: v for k, v in ws.env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    ws.env.update(PATH=str(ws.root), BROWSE_CHROMIUM_PATH=CHROMIUM)
    ws.ok("goto", app.url("/d/field"))
    out = ws.ok("handoff", "type hello")
    assert "no display here" in out
    url = next(line for line in out.splitlines() if line.startswith("http://127.0.0.1:"))
    assert "a person has control" in ws.run("click", "#x").err
    page.goto(url)
    page.click("nav button[data-pane=live]")
    expect(page.locator("#takeover")).to_be_checked()
    with page.expect_response(lambda r: r.url.endswith("/api/input")):
        page.locator("#screen").click(position={"x": 100, "y": 60})
    with page.expect_response(lambda r: r.url.endswith("/api/input")):
        page.keyboard.press("h")
    assert "Resumed" in ws.ok("resume")
    assert strip_fence(ws.ok("js", "document.querySelector('#x').value")).strip() == "h"


# chat


def test_the_chat_runs_the_agent_on_the_page_and_streams_its_output(
    ws: Workspace, app: Site, page: Page
) -> None:
    ws.ok("goto", app.url("/d/field"))
    open_dashboard(ws, page)
    page.click("nav button[data-pane=chat]")
    page.fill("#message", "hello from chat")
    page.click("#send")
    reply = page.locator("#reply")
    expect(reply).to_contain_text("[the agent exited with 0]")
    for line in ("got: hello from chat", f"URL: {app.url('/d/field')}", "fenced: True", "own folder: True"):
        expect(reply).to_contain_text(line)
    expect(reply).to_contain_text("fill exit 0")
    assert strip_fence(ws.ok("js", "document.querySelector('#x').value")).strip() == "hello from chat"
    fill = page.locator("#rows tr", has=page.locator("td.command", has_text="fill")).first
    expect(fill.locator("td.args")).to_have_text('#x "hello from chat"')
    expect(fill.locator("td.client")).to_have_text("chat")


def test_a_chat_run_can_be_cancelled(ws: Workspace, page: Page) -> None:
    open_dashboard(ws, page)
    page.click("nav button[data-pane=chat]")
    page.fill("#message", "sleep")
    page.click("#send")
    expect(page.locator("#reply")).to_contain_text("sleeping")
    page.click("#cancel")
    expect(page.locator("#reply")).to_contain_text("[the agent exited with -9]")
    expect(page.locator("#send")).to_be_enabled()


# access codes and shutdown


def test_stop_cuts_open_pages_off_and_chat_needs_an_agent_command(fresh_workspace: Workspace) -> None:
    ws = fresh_workspace
    port, cookie = cookie_of(ws)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/api/chat", json.dumps({"message": "hi"}), headers={"Cookie": cookie})
    response = conn.getresponse()
    assert response.status == 400 and "BROWSE_AGENT_CMD" in response.read().decode()
    stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    stream.request("GET", "/api/events", headers={"Cookie": cookie})
    assert stream.getresponse().status == 200
    ws.ok("stop")
    log = (ws.state_dir / "daemon.log").read_text()
    assert "daemon" in log and "exits (0)" in log and "shutdown took longer" not in log


def test_commands_from_mcp_are_marked_as_such(ws: Workspace, app: Site) -> None:
    async def scenario() -> None:
        server = StdioServerParameters(command=BROWSE, args=["mcp"], cwd=str(ws.root), env=ws.env)
        async with Client(server) as client:
            result = await client.call_tool("goto", {"url": app.url("/d/form?from=mcp")})
            assert not result.is_error

    # The viewer's sync Playwright keeps an event loop on this thread: the MCP client gets its own.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()
    port, cookie = cookie_of(ws)
    [*_, goto] = events_until(port, cookie, 0, app.url("/d/form?from=mcp"))
    assert (goto["command"], goto["client"]) == ("goto", "mcp")


@needs_display
def test_letting_go_on_the_page_keeps_a_handoff_to_a_visible_window(
    fresh_workspace: Workspace, app: Site
) -> None:
    ws = fresh_workspace
    ws.ok("goto", app.url("/d/field"))
    ws.ok("handoff", "look at the field")
    port, cookie = cookie_of(ws)
    headers = {"Cookie": cookie, "Content-Type": "application/json"}
    for on in (True, False):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", "/api/takeover", json.dumps({"on": on}), headers=headers)
        assert json.loads(conn.getresponse().read())["control"] is on
    assert ws.run("url").code == 0
    assert "handoff: a person has the browser" in ws.ok("status")
    assert "Resumed: headless" in ws.ok("resume")


def test_rows_name_the_tab_a_command_ran_in(ws: Workspace, app: Site) -> None:
    ws.ok("newtab", app.url("/d/form?tab=two"))
    ws.ok("js", "'in-tab-two'")
    ws.ok("closetab")
    ws.ok("js", "'back-in-tab-one'")
    port, cookie = cookie_of(ws)
    history = events_until(port, cookie, 0, "'back-in-tab-one'")
    tabs = {str(e["args"][0]): e["tab"] for e in history if e["command"] == "js"}  # type: ignore[index]
    assert (tabs["'in-tab-two'"], tabs["'back-in-tab-one'"]) == (2, 1)
