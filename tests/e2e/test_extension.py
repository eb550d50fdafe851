"""The headed browser's extension: real Chromium under the daemon's private Xvfb, driven by `browse`.

The workspace's Chromium is started through a small wrapper that adds a
DevTools port, so the tests can look at the extension from outside the daemon
(`devtools`): its service workers and badge, its side panel and the activity
page framed in it. The panel is opened as a person would, with the
extension's keyboard shortcut on the X display; the @ref labels are checked on
a shot of the whole X screen.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_headed import _pixels

import devtools
from conftest import CHROMIUM, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

X_TOOLS = ("Xvfb", "xdotool", "import", "convert")
MISSING = [tool for tool in X_TOOLS if shutil.which(tool) is None]
pytestmark = pytest.mark.skipif(
    bool(MISSING),
    reason=f"{', '.join(MISSING)} not installed (`make xvfb` installs them where apt and root are there)",
)
GREEN, RED = [26, 127, 55, 255], [207, 34, 46, 255]
LABEL_RGB = (0x09, 0x69, 0xDA)
FIXTURE = """<title>Labelled</title><body style="margin:0;padding:60px 40px">
<button style="width:240px;height:60px">Press me</button><p><a href="/ext/other">Other page</a></p></body>"""


def free_port() -> int:
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
        s.bind(("::1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def debug_port() -> int:
    return free_port()


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory, debug_port: int) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("extension")
    wrapper = root / "chromium-with-devtools"
    wrapper.write_text(f'#!/bin/sh\nexec {CHROMIUM} --remote-debugging-port={debug_port} "$@"\n')
    wrapper.chmod(0o755)
    workspace = Workspace(root / "ws")
    workspace.env.pop("DISPLAY", None)
    workspace.env.pop("WAYLAND_DISPLAY", None)
    workspace.env["BROWSE_CHROMIUM_PATH"] = str(wrapper)
    yield workspace
    workspace.stop()


def until(check: Callable[[], Any], what: str, tries: int = 150) -> Any:
    """The first truthy answer of `check`, asked every 0.1 s; fails saying `what` never came."""
    for _ in range(tries):
        answer = check()
        if answer:
            return answer
        time.sleep(0.1)
    raise AssertionError(f"{what} never came")


def targets(port: int, kind: str, pattern: str) -> list[dict[str, Any]]:
    return [t for t in devtools.targets(port) if t["type"] == kind and re.search(pattern, t["url"])]


def session_worker(port: int, session: str) -> dict[str, Any] | None:
    """The service worker of `session`'s own instance of the extension."""
    for worker in targets(port, "service_worker", r"^chrome-extension://\w+/worker\.js$"):
        given = devtools.evaluate(worker, "self.refbrowseSession || ''")
        if given == session:
            return worker
    return None


def badge(worker: dict[str, Any]) -> list[int]:
    colour = devtools.evaluate(worker, "chrome.action.getBadgeBackgroundColor({})")
    assert isinstance(colour, list)
    return colour


def extension_id(ws: Workspace) -> str:
    status = ws.ok("status")
    found = re.search(r"extension: chrome-extension://(\w+) \(side panel, badge, @ref overlay\)", status)
    assert found, status
    return found.group(1)


def display_of(ws: Workspace) -> dict[str, str]:
    """What an X client needs to reach the daemon's private display: it lets in only its cookie."""
    status = ws.ok("status")
    found = re.search(r"display (:\d+), a private Xvfb \(XAUTHORITY=([^\s)]+)\)", status)
    assert found, status
    return {"DISPLAY": found.group(1), "XAUTHORITY": found.group(2)}


def js(ws: Workspace, expression: str) -> str:
    return strip_fence(ws.ok("js", expression)).strip()


def to_the_front(ws: Workspace) -> dict[str, str]:
    """Raise and focus the default session's window (found by its page's title) on the X display
    (no window manager does it there); the environment that reaches that display."""
    env = {**os.environ, **display_of(ws)}
    title = js(ws, "document.title")
    window = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", f"^{re.escape(title)} - "],
        env=env, capture_output=True, text=True, check=True, timeout=30,
    ).stdout.split()[0]  # fmt: skip
    subprocess.run(["xdotool", "windowraise", window, "windowfocus", "--sync", window], env=env, check=True)
    return env


def open_panel(ws: Workspace, port: int) -> dict[str, Any]:
    """The default session's side panel, opened with the extension's shortcut as a person would (in
    the window that shows the session's page: each session has its own); its activity frame."""
    if not targets(port, "page", r"/panel\.html$"):
        env = to_the_front(ws)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "alt+shift+y"], env=env, check=True, timeout=30)
    until(lambda: targets(port, "page", r"/panel\.html$"), "a side panel")
    frames: list[dict[str, Any]] = until(
        lambda: targets(port, "iframe", r"^http://127\.0\.0\.1:\d+/\?session=default$"),
        "the activity page signed in inside the panel",
    )
    return frames[0]


@pytest.fixture(scope="module")
def headed(ws: Workspace, site: Site) -> Workspace:
    ws.ok("goto", site.page("/ext/start", "<title>Start</title><p>start</p>"))
    out = ws.ok("connect")
    assert "Now headed" in out
    return ws


def test_headed_mode_loads_the_extension_into_each_session(
    headed: Workspace, debug_port: int, site: Site
) -> None:
    ws = headed
    workers = targets(debug_port, "service_worker", rf"^chrome-extension://{extension_id(ws)}/worker\.js$")
    assert workers, "the extension's service worker runs in the browser"
    ws.ok("--session", "second", "goto", site.page("/ext/second", "<title>Second</title>"))
    until(lambda: session_worker(debug_port, "default"), "the default session's instance of the extension")
    until(lambda: session_worker(debug_port, "second"), "a second session's own instance of the extension")
    token = str(ws.daemon_info()["token"])
    for worker in targets(debug_port, "service_worker", r"/worker\.js$"):
        given = devtools.evaluate(worker, "chrome.storage.session.get(null).then(c => JSON.stringify(c))")
        assert token not in given, "the daemon's bearer token is never given to the extension"
    extension_files = Path(__file__).parent.parent.parent / "src" / "refbrowse" / "extension"
    assert all(token not in f.read_text() for f in extension_files.iterdir())


def test_the_badge_is_green_while_the_daemon_answers_and_red_while_it_does_not(
    headed: Workspace, debug_port: int
) -> None:
    worker = until(lambda: session_worker(debug_port, "default"), "the default session's instance")
    until(lambda: badge(worker) == GREEN, "a green badge")
    daemon = int(str(headed.daemon_info()["pid"]))
    os.kill(daemon, signal.SIGSTOP)
    try:
        until(lambda: badge(worker) == RED, "a red badge while the daemon is stopped")
    finally:
        os.kill(daemon, signal.SIGCONT)
    until(lambda: badge(worker) == GREEN, "the green badge back once the daemon answers")
    assert "its badge last asked the daemon" in headed.ok("status")


def test_the_side_panel_shows_the_sessions_activity_feed(
    headed: Workspace, debug_port: int, site: Site
) -> None:
    ws = headed
    frame = open_panel(ws, debug_port)
    url = site.page("/ext/row-from-the-cli", "<title>Row</title><p>row</p>")
    ws.ok("goto", url)
    until(
        lambda: url in devtools.evaluate(frame, "document.querySelector('#rows').innerText"),
        "a feed row in the side panel for the CLI's goto",
    )
    row = devtools.evaluate(
        frame,
        f"[...document.querySelectorAll('#rows tr')].find(r => r.innerText.includes({json.dumps(url)}))"
        ".innerText",
    )
    # The panel is narrow: the feed shows the time, the command, its argument, its time and outcome
    # (client, session and tab columns are left out at phone widths).
    assert re.search(r"\bgoto\s+" + re.escape(url) + r"\s+\d+\s+ok\b", row), row
    assert devtools.evaluate(frame, "document.cookie") == "", "the panel's cookie is HttpOnly"
    token = str(ws.daemon_info()["token"])
    assert token not in frame["url"] and token not in devtools.evaluate(frame, "document.body.innerHTML")
    assert token not in (ws.state_dir / "daemon.log").read_text()


def test_the_panel_cookie_never_reaches_pages_of_the_session(
    headed: Workspace, debug_port: int, site: Site
) -> None:
    ws = headed
    open_panel(ws, debug_port)
    site.route("/ext/echo", lambda h: h.reply(f"<pre>{h.headers.get('Cookie') or '(none)'}</pre>"))
    ws.ok("goto", site.url("/ext/echo"))
    assert strip_fence(ws.ok("text")).strip() == "(none)", (
        "the panel's cookie is partitioned to the extension"
    )


def _label_pixels(ws: Workspace, shot: Path) -> int:
    """How many pixels of the label colour sit at the button's top-left corner on the X screen."""
    where = json.loads(
        js(
            ws,
            "(() => { const r = document.querySelector('button').getBoundingClientRect();"
            " return JSON.stringify([window.screenX + r.x,"
            " window.screenY + window.outerHeight - window.innerHeight + r.y]); })()",
        )
    )
    left, top = (round(v) for v in where)
    env = to_the_front(ws)
    subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True, timeout=30)
    return _count_colour(shot, f"30x16+{left}+{max(0, top - 4)}")


def _count_colour(png: Path, geometry: str) -> int:
    count = 0
    for line in _pixels(png, geometry):
        found = re.search(r"\((\d+),(\d+),(\d+)", line)
        if found and all(abs(int(a) - b) <= 30 for a, b in zip(found.groups(), LABEL_RGB, strict=True)):
            count += 1
    return count


def _switch_overlay(panel: dict[str, Any], on: bool) -> None:
    script = "(() => { const box = document.querySelector('#overlay');"
    script += f" if (box.checked !== {json.dumps(on)}) box.click(); return box.checked; }})()"
    assert devtools.evaluate(panel, script) is on


def _without_nonce(text: str) -> str:
    return re.sub(r"nonce=\w+", "nonce=", text)


def test_the_overlay_labels_the_refs_and_stays_out_of_snapshot_text_and_screenshot(
    headed: Workspace, debug_port: int, site: Site, tmp_path: Path
) -> None:
    ws = headed
    ws.ok("goto", site.page("/ext/labelled", FIXTURE))
    snapshot = ws.ok("snapshot", "-i")
    assert re.search(r'button "Press me" @e\d+', snapshot), snapshot
    text = ws.ok("text")
    open_panel(ws, debug_port)
    panel = targets(debug_port, "page", r"/panel\.html$")[0]
    assert _label_pixels(ws, tmp_path / "before.png") == 0
    _switch_overlay(panel, True)
    try:
        until(
            lambda: js(ws, "document.querySelectorAll('refbrowse-refs').length") == "1",
            "the overlay's labels",
        )
        assert _label_pixels(ws, tmp_path / "labelled.png") > 20, "a @ref label at the button on the screen"
        assert _without_nonce(ws.ok("snapshot", "-i")) == _without_nonce(snapshot)
        assert _without_nonce(ws.ok("text")) == _without_nonce(text)
        page_shot = tmp_path / "page.png"
        ws.ok("screenshot", "--viewport", str(page_shot))
        box = json.loads(js(ws, "JSON.stringify(document.querySelector('button').getBoundingClientRect())"))
        assert _count_colour(page_shot, f"30x16+{round(box['x'])}+{round(box['y']) - 4}") == 0, (
            "the labels are not in `browse screenshot`"
        )
        assert js(ws, "document.querySelectorAll('refbrowse-refs').length") == "1", "shown again after it"
    finally:
        _switch_overlay(panel, False)
    until(lambda: js(ws, "document.querySelectorAll('refbrowse-refs').length") == "0", "the labels gone")


def _ask(port: int, method: str, path: str, **headers: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, headers={"Host": f"127.0.0.1:{port}", **headers})
        return conn.getresponse().status
    finally:
        conn.close()


def test_only_the_loaded_extension_s_key_gets_codes_and_only_its_frame_comes_across_sites(
    headed: Workspace, debug_port: int
) -> None:
    """Last in the file: it ends headless."""
    worker = until(lambda: session_worker(debug_port, "default"), "the default session's instance")
    shared = devtools.evaluate(worker, "chrome.storage.session.get(['port', 'key'])")
    port, key = int(shared["port"]), str(shared["key"])
    assert _ask(port, "POST", "/ext/code", **{"X-Refbrowse-Key": key}) == 200
    assert _ask(port, "POST", "/ext/code") == 401
    assert _ask(port, "POST", "/ext/code", **{"X-Refbrowse-Key": key[:-1] + "x"}) == 401
    across = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "iframe"}
    assert _ask(port, "GET", "/api/refs", **across) == 403, "only the page itself may be framed"
    assert _ask(port, "GET", "/", **across, Origin="http://evil.example") == 403
    assert _ask(port, "GET", "/", **across) == 401, "framed, the page still needs its cookie"
    assert _ask(port, "POST", "/api/chat", Origin=f"chrome-extension://{extension_id(headed)}") == 403
    headed.ok("disconnect")
    assert _ask(port, "POST", "/ext/code", **{"X-Refbrowse-Key": key}) == 401, "no extension, no key"
    assert _ask(port, "GET", "/", **across) == 403, "headless, nothing frames the page"
