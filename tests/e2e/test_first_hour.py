"""What a new user meets in the first hour: a goto that answers at once, hints that fit their cause."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from test_prepared_snapshot import SLOW_TO_READ  # a big page whose background reading takes 3.5 s

from conftest import FixtureHandler, Site, Workspace, strip_fence
from killing import wait_for_exit

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def closed_port() -> int:
    """A port nothing listens on: a load there is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class HeldImage:
    """A page whose image the server holds back until `release`: its load never ends before."""

    url: str
    release: threading.Event
    asked: list[str]  # the page's URLs as requested, in order

    def wait_for_request(self, count: int) -> None:
        for _ in range(600):
            if len(self.asked) >= count:
                return
            time.sleep(0.05)
        raise AssertionError(f"the page was asked for {len(self.asked)} times, not {count}")


@pytest.fixture
def held_image(site: Site) -> Iterator[HeldImage]:
    release, asked = threading.Event(), []

    def image(handler: FixtureHandler) -> None:
        release.wait(90)
        handler.send_response(204)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def page(handler: FixtureHandler) -> None:
        asked.append(handler.path)
        handler.reply('<title>held</title><h1>Held back</h1><img src="/held.png">')

    site.route("/held.png", image)
    held = HeldImage(site.route("/held", page), release, asked)
    yield held
    release.set()


def test_goto_no_wait_answers_before_the_load_and_a_command_behind_a_goto_says_what_it_waits_for(
    workspace: Workspace, held_image: HeldImage
) -> None:
    url, release = held_image.url, held_image.release
    ws = workspace
    ws.ok("goto", "about:blank")
    try:
        out = ws.ok("goto", "--no-wait", url, timeout=30)  # type: ignore[arg-type]
    except subprocess.TimeoutExpired:
        pytest.fail("goto --no-wait waited for the page's load event")
    assert out.startswith(f"Navigated to {url}")
    assert strip_fence(ws.ok("js", "document.readyState")).strip() != "complete"
    assert "Held back" in strip_fence(ws.ok("text"))
    # A goto that waits for the load holds the tab; a command behind it says what it waits for,
    # early (before its answer), and gives up at its own --timeout saying how to stop the holder.
    holder = f"goto {url}?again"
    behind = ws.start("goto", url + "?again")
    try:
        held_image.wait_for_request(2)  # that goto has the tab: its page came, its image is held
        late = ws.run("text", "--timeout", "1000")
        assert late.code == 4, late
        assert f"note: text waits for `{holder}`, which holds this tab (running for" in late.err, late.err
        assert f"error: text did not run: `{holder}` still holds this tab" in late.err, late.err
        assert "waited 1 s, its --timeout" in late.err and "Ctrl-C on the `browse` that runs it" in late.err
        patient = ws.start("text")
        assert patient.stderr is not None
        assert patient.stderr.readline().startswith(f"note: text waits for `{holder}`")  # before its answer
        behind.send_signal(signal.SIGINT)  # Ctrl-C on the goto's `browse`: the daemon cancels it
        out, err = patient.communicate(timeout=60)
        assert patient.returncode == 0 and "Held back" in out, err
        assert f"s for `{holder}` to finish on this tab before running text" in err, err
    finally:
        release.set()
        behind.communicate(timeout=60)


def test_a_load_that_fails_while_offline_names_offline_off(workspace: Workspace, site: Site) -> None:
    ws = workspace
    ws.ok("goto", site.page("/first/online", "<h1>online</h1>"))
    ws.ok("offline", "on")
    failed = ws.run("goto", site.page("/first/later", "<h1>later</h1>"))
    assert failed.code == 1 and "`browse offline off`" in failed.err, failed.err
    assert "this machine has no network" not in failed.err
    ws.ok("offline", "off")
    failed = ws.run("goto", f"http://127.0.0.1:{closed_port()}/")
    assert failed.code == 1 and "offline" not in failed.err, failed.err


def test_loads_that_fail_for_unrelated_reasons_never_suggest_a_handoff(workspace: Workspace) -> None:
    ws = workspace
    for url in ("http://nowhere.invalid/", "http://127.0.0.1:6000/", "file:///no/such/file.html"):
        ws.run("goto", url, "--allow-file")
    refused = ws.run("goto", f"http://127.0.0.1:{closed_port()}/")
    assert refused.code == 1 and "refused" in refused.err
    assert "handoff" not in refused.err, refused.err


def test_a_killed_daemon_s_tabs_are_named_once_by_the_next_command(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    first = site.page("/first/one", "<title>one</title><h1>one</h1>")
    second = site.page("/first/two", "<title>two</title><h1>two</h1>")
    ws.ok("goto", first)
    ws.ok("newtab", second)
    tabs = ws.state_dir / "state" / "tabs-default.json"
    for _ in range(600):  # the tabs are written with the cookies, a moment after a command
        if tabs.exists() and second in tabs.read_text():
            break
        time.sleep(0.05)
    daemon = int(str(ws.daemon_info()["pid"]))
    os.kill(daemon, signal.SIGKILL)
    wait_for_exit(daemon)
    after = ws.run("url")
    assert after.code == 0
    assert "killed or replaced" in after.err and first in after.err and second in after.err, after.err
    assert "killed or replaced" not in ws.run("url").err, "said once"
    ws.ok("goto", first)
    ws.stop()  # a daemon stopped as asked leaves nothing to say
    assert "killed or replaced" not in ws.run("url").err


def _json_answer(body: str) -> Callable[[FixtureHandler], None]:
    def answer(handler: FixtureHandler) -> None:
        data = body.encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    return answer


def test_goto_of_a_json_answer_shows_its_json_cut_to_the_report_s_budget(
    workspace: Workspace, site: Site
) -> None:
    items = [{"id": n, "name": f"item {n}"} for n in range(400)]
    url = site.route("/first/api.json", _json_answer(json.dumps({"total": 400, "items": items})))
    shown = workspace.ok("goto", url)
    assert '{"total": 400, "items": [{"id": 0, "name": "item 0"}' in shown
    assert "(nothing to show)" not in shown and "`browse text` prints the whole JSON" in shown
    assert len(shown) < 6_000, "bounded"
    small = site.route("/first/small.json", _json_answer('{"ok": true}'))
    assert '{"ok": true}' in workspace.ok("goto", small).splitlines()


def test_a_command_behind_the_daemon_s_own_reading_is_not_held_to_its_timeout(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/first/slow.html", SLOW_TO_READ))
    after = workspace.run("text", "--timeout", "1000")  # the reading's time is not the command's
    assert after.code == 0 and "A long page" in after.out, after.err
