"""Headed mode, the window marker, focus, handoff and resume: real Chromium under a private Xvfb.

The workspace has no DISPLAY, so `connect` starts the daemon's own Xvfb. The
window marker is checked on a shot of the whole X screen (ImageMagick's
`import -window root`), not on a page screenshot. A person's part in a handoff
is played with xdotool: real X mouse events on the visible window.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import FixtureHandler, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

X_TOOLS = ("Xvfb", "xdotool", "import")
MISSING = [tool for tool in X_TOOLS if shutil.which(tool) is None]
needs_x = pytest.mark.skipif(
    bool(MISSING),
    reason=f"{', '.join(MISSING)} not installed (`make xvfb` installs them where apt and root are there)",
)
MARKER_RGB = (0xE8, 0x59, 0x0C)


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    workspace = Workspace(tmp_path_factory.mktemp("headed"))
    workspace.env.pop("DISPLAY", None)
    workspace.env.pop("WAYLAND_DISPLAY", None)
    yield workspace
    workspace.stop()


def js(ws: Workspace, expression: str) -> str:
    return strip_fence(ws.ok("js", expression)).strip()


def display_of(ws: Workspace) -> str:
    found = re.search(r"display (:\d+)", ws.ok("status"))
    assert found, ws.ok("status")
    return found.group(1)


def display_env(ws: Workspace) -> dict[str, str]:
    """The environment an X client needs for the daemon's private display: it lets in only its cookie."""
    status = ws.ok("status")
    found = re.search(r"display (:\d+), a private Xvfb \(XAUTHORITY=([^\s)]+)\)", status)
    assert found, status
    return {**os.environ, "DISPLAY": found.group(1), "XAUTHORITY": found.group(2)}


def xvfb_pids(ws: Workspace) -> set[int]:
    """The Xvfb processes the workspace's daemon started (other programs may run their own)."""
    daemon = int(str(ws.daemon_info()["pid"]))
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            name, rest = stat.split(" (", 1)[1].rsplit(")", 1)
            if name == "Xvfb" and int(rest.split()[1]) == daemon:
                pids.add(int(entry))
    return pids


def login_site(site: Site) -> str:
    def do_login(h: FixtureHandler) -> None:
        h.redirect("/hd/home", "sid=by-a-person; Path=/; HttpOnly")

    def home(h: FixtureHandler) -> None:
        who = "Welcome back" if "sid=by-a-person" in (h.headers.get("Cookie") or "") else "Not signed in"
        h.reply(f"<title>Home</title><h1>{who}</h1><a href='/hd/login'>login</a>")

    site.route("/hd/do-login", do_login)
    site.route("/hd/home", home)
    return site.page(
        "/hd/login",
        "<title>Sign in</title><form method=post action=/hd/do-login>"
        "<button style='width:300px;height:120px;margin:60px'>Sign in</button></form>",
    )


@needs_x
def test_connect_carries_cookies_storage_and_tabs_and_back(ws: Workspace, site: Site) -> None:
    first = site.page("/hd/one", "<title>One</title><button>Press</button>")
    second = site.page("/hd/two", "<title>Two</title><p>two</p>")
    ws.ok("goto", first)
    js(ws, "document.cookie = 'flavour=mint; path=/'")
    js(ws, "localStorage.setItem('kept', 'local'); sessionStorage.setItem('tabonly', 'session')")
    ws.ok("newtab", second)
    ws.ok("tab", "1")
    ws.ok("snapshot", "-i")
    assert not xvfb_pids(ws)

    out = ws.ok("connect")
    assert "Now headed" in out and "2 tab(s) carried over, current tab 1" in out
    assert "mode: headed" in ws.ok("status")
    assert ws.daemon_info()["mode"] == "headed"
    assert len(xvfb_pids(ws)) == 1, "connect without DISPLAY starts one private Xvfb"
    tabs = strip_fence(ws.ok("tabs"))
    assert re.search(r"^\* 1  One  .*/hd/one$", tabs, re.M) and re.search(
        r"^  2  Two  .*/hd/two$", tabs, re.M
    )
    assert js(ws, "document.cookie") == "flavour=mint"
    assert js(ws, "localStorage.getItem('kept') + '/' + sessionStorage.getItem('tabonly')") == "local/session"
    stale = ws.run("click", "@e1")
    assert stale.code == 1
    assert 'error: @e1 (button "Press") is from before the switch to a headed browser' in stale.err
    assert "browse snapshot -i" in stale.err

    ws.ok("tab", "2")
    js(ws, "document.cookie = 'second=yes; path=/'")
    out = ws.ok("disconnect")
    assert "Now headless" in out and "current tab 2" in out
    assert "mode: headless" in ws.ok("status") and ws.daemon_info()["mode"] == "headless"
    assert not xvfb_pids(ws), "the private Xvfb stops when the browser is headless again"
    assert js(ws, "document.cookie") == "flavour=mint; second=yes"
    ws.ok("tab", "1")
    assert js(ws, "sessionStorage.getItem('tabonly') + '/' + localStorage.getItem('kept')") == "session/local"


def _orange(pixel: str) -> bool:
    found = re.search(r"\((\d+),(\d+),(\d+)", pixel)
    if not found:
        return False
    rgb = [int(v) for v in found.groups()]
    return all(abs(a - b) <= 24 for a, b in zip(rgb, MARKER_RGB, strict=True))


def _pixels(png: Path, geometry: str) -> list[str]:
    text = subprocess.run(
        ["convert", str(png), "-crop", geometry, "+repage", "txt:-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line for line in text.splitlines() if not line.startswith("#")]


@needs_x
def test_the_headed_window_is_marked_without_changing_the_page(
    ws: Workspace, site: Site, tmp_path: Path
) -> None:
    url = site.page("/hd/marked", "<title>Marked</title><body style='margin:0'><button>Top</button></body>")
    ws.ok("goto", url)
    probe = (
        "JSON.stringify([document.body.getBoundingClientRect().top, document.elementFromPoint(5, 1).tagName])"
    )
    layout = js(ws, probe)
    ws.ok("connect")
    try:
        assert js(ws, probe) == layout, "the marker changes no layout and is not hit by the pointer"
        assert js(ws, "document.querySelectorAll('refbrowse-marker').length") == "1"
        assert "refbrowse" not in ws.ok("snapshot") and "refbrowse" not in ws.ok("text")
        # The real screen: where the viewport sits on it, then a shot of the whole X display.
        box = json.loads(
            js(
                ws,
                "JSON.stringify([window.screenX, window.screenY + window.outerHeight - window.innerHeight,"
                " window.innerWidth])",
            )
        )
        left, top, width = (int(v) for v in box)
        shot = Path(os.environ.get("BROWSE_TEST_SHOTS", tmp_path)) / "headed-window.png"
        env = display_env(ws)
        subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True, timeout=30)
        line = _pixels(shot, f"1x8+{left + width // 2}+{top}")
        assert any(_orange(p) for p in line[:4]), f"no marker line at the viewport's top edge: {line}"
        pill_row = _pixels(shot, f"120x1+{left + width - 130}+{top + 13}")
        assert sum(_orange(p) for p in pill_row) > 20, "no refbrowse pill at the top right"
        below = _pixels(shot, f"1x1+{left + width // 2}+{top + 40}")
        assert not _orange(below[0]), "the marker is a thin line, not a band"
        page_shot = tmp_path / "headed-page.png"
        ws.ok("screenshot", "--viewport", str(page_shot))
        edge = _pixels(page_shot, f"1x4+{width // 2}+0")
        assert not any(_orange(p) for p in edge), f"the marker is in `browse screenshot`: {edge}"
        assert js(ws, "getComputedStyle(document.querySelector('refbrowse-marker')).display") == "block"
    finally:
        ws.ok("disconnect")
    assert js(ws, "document.querySelectorAll('refbrowse-marker').length") == "0", (
        "headless pages carry no marker"
    )


@needs_x
def test_focus_raises_the_window_and_scrolls_the_element_into_view(ws: Workspace, site: Site) -> None:
    url = site.page("/hd/long", "<title>Long</title><div style='height:3000px'></div><button>Far</button>")
    ws.ok("goto", url)
    headless = ws.ok("focus")
    assert "headless" in headless and "browse connect" in headless
    ws.ok("connect")
    try:
        ref = re.search(r'button "Far" (@e\d+)', ws.ok("snapshot", "-i"))
        assert ref
        out = ws.ok("focus", ref.group(1))
        assert "Browser.setWindowBounds" in out and "xdotool" in out and "scrolled into view" in out
        seen = "(() => { const r = document.querySelector('button').getBoundingClientRect();"
        seen += " return window.scrollY > 2000 && r.top >= 0 && r.bottom <= innerHeight; })()"
        assert js(ws, seen) == "true"
    finally:
        ws.ok("disconnect")


def _click_like_a_person(ws: Workspace, selector: str) -> None:
    where = json.loads(
        js(
            ws,
            f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
            " return JSON.stringify([window.screenX + r.x + r.width / 2,"
            " window.screenY + window.outerHeight - window.innerHeight + r.y + r.height / 2]); })()",
        )
    )
    env = display_env(ws)
    x, y = (str(round(v)) for v in where)
    subprocess.run(["xdotool", "mousemove", "--sync", x, y, "click", "1"], env=env, check=True, timeout=30)


@needs_x
def test_handoff_lets_a_person_sign_in_and_resume_takes_it_back(ws: Workspace, site: Site) -> None:
    login = login_site(site)
    ws.ok("goto", login)
    out = ws.ok("handoff", "sign in to the shop")
    assert "Handed off to a person: sign in to the shop" in out
    assert 'Tell the person: "Please sign in to the shop in the browser window marked refbrowse' in out
    assert "browse resume" in out and "x11vnc -display :" in out
    assert "mode: headed" in ws.ok("status") and "handoff: a person has the browser" in ws.ok("status")

    _click_like_a_person(ws, "button")
    for _ in range(100):
        if ws.ok("url").strip().endswith("/hd/home"):
            break
        time.sleep(0.1)
    resumed = ws.ok("resume")
    assert "Resumed: headless" in resumed
    assert "Welcome back" in resumed, "resume prints a fresh snapshot -i, with what the person did"
    assert re.search(r'link "login" @e\d+', resumed)
    status = ws.ok("status")
    assert "mode: headless" in status and "handoff:" not in status
    cookies = ws.ok("cookies")
    assert "sid" in cookies, "the person's login cookie came back with the session"
    again = ws.run("resume")
    assert again.code == 2 and "no handoff is in progress" in again.err


def test_three_failures_on_one_page_suggest_a_handoff(fresh_workspace: Workspace, site: Site) -> None:
    ws = fresh_workspace
    ws.ok("goto", site.page("/hd/stuck", "<title>Stuck</title><button>Only</button>"))
    hints = [ws.run("click", "#missing", "--timeout", "500").err for _ in range(3)]
    assert "handoff" not in hints[0] and "handoff" not in hints[1]
    assert "3 commands in a row failed on this page" in hints[2] and "browse handoff" in hints[2]
    ws.ok("click", "button")
    assert "handoff" not in ws.run("click", "#missing", "--timeout", "500").err, "a success resets the count"
    assert ws.run("tab", "99").code == 2  # a usage error neither counts nor resets
    assert ws.run("click", "p[[").code == 2  # nor does a selector that is not valid CSS
    assert ws.run("click", ":nth-child(x)").code == 2
    assert "handoff" not in ws.run("click", "#missing", "--timeout", "500").err
    third = ws.run("click", "#missing", "--timeout", "500").err
    assert "browse handoff" in third
    stale = ws.run("click", "@e99")  # the agent's refs out of date: a snapshot mends it, not a person
    assert stale.code != 0 and "get current refs" in stale.err and "handoff" not in stale.err
    assert "4 commands in a row" in ws.run("click", "#missing", "--timeout", "500").err, "nor did it reset"
    ws.ok("goto", site.page("/hd/other", "<title>Other</title>"))
    for _ in range(2):
        assert "handoff" not in ws.run("click", "#missing", "--timeout", "500").err, (
            "another page starts anew"
        )


@needs_x
def test_no_handoff_hint_when_already_headed(fresh_workspace: Workspace, site: Site) -> None:
    ws = fresh_workspace
    ws.env.pop("DISPLAY", None)
    ws.ok("goto", site.page("/hd/stuck2", "<title>Stuck</title>"))
    ws.ok("connect")
    errors = [ws.run("click", "#missing", "--timeout", "500") for _ in range(3)]
    assert all(e.code == 1 for e in errors)
    assert "handoff" not in errors[2].err


@needs_x
def test_the_private_xvfb_stops_with_the_daemon(fresh_workspace: Workspace) -> None:
    ws = fresh_workspace
    ws.env.pop("DISPLAY", None)
    ws.ok("connect")
    started = xvfb_pids(ws)
    assert len(started) == 1
    ws.ok("stop")
    for _ in range(100):
        if not any(Path(f"/proc/{pid}").exists() for pid in started):
            break
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in started), "Xvfb outlived its daemon"


def test_connect_names_a_missing_or_unknown_channel(ws: Workspace) -> None:
    unknown = ws.run("connect", "--channel", "netscape")
    assert (
        unknown.code == 2
        and "--channel takes one of chrome, msedge" in unknown.err
        and "netscape" in unknown.err
    )
    if not Path("/opt/microsoft/msedge/msedge").exists() and shutil.which("microsoft-edge") is None:
        missing = ws.run("connect", "--channel", "msedge")
        assert missing.code == 3 and "Microsoft Edge is not installed here" in missing.err
        assert "browse connect" in missing.err
        assert "mode: headless" in ws.ok("status"), "a browser that cannot start changes nothing"


@needs_x
def test_the_allowed_hosts_gate_holds_in_the_headed_browser_from_its_first_load(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    ws.env.pop("DISPLAY", None)
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.*"
    hits: list[str] = []
    site.route("/hd/elsewhere.js", lambda h: (hits.append(h.path), h.reply("1")))
    port = site.server.server_address[1]
    url = site.page(
        "/hd/gated", f"<p>gated</p><script src='http://localhost:{port}/hd/elsewhere.js'></script>"
    )
    ws.ok("goto", url)
    ws.ok("connect")
    assert "gated" in strip_fence(ws.ok("text")), "the tab was opened again in the headed browser"
    assert hits == [], "the reopened tab's requests went through the gate too"
    refused = ws.run("goto", f"http://localhost:{port}/hd/gated")
    assert refused.code == 2 and "BROWSE_ALLOWED_HOSTS" in refused.err
