"""A page that wedges its tab (busy loop, alert loop, popup storm) is replaced, and the session goes on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from conftest import Result, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

BUSY = "<title>busy</title><script>setTimeout(() => { while (true) {} }, 50)</script>"
ALERTS = "<title>alerts</title><script>setTimeout(() => { while (true) alert('again') }, 50)</script>"
POPUPS = """<title>popups</title><script>
let n = 0;
const timer = setInterval(() => { window.open('about:blank'); if (++n >= 60) clearInterval(timer) }, 20);
</script>"""


@pytest.fixture(scope="module")
def ok(site: Site) -> str:
    return site.page("/calm", "<title>calm</title><p>calm page</p>")


def _tabs(ws: Workspace) -> list[str]:
    return strip_fence(ws.ok("tabs")).splitlines()


@dataclass
class BusyTab:
    """A workspace after a `goto` ran into a tab in a busy loop, and another session's `goto` meanwhile."""

    ws: Workspace
    stuck: Result
    other: Result


@pytest.fixture(scope="module")
def busy_tab(tmp_path_factory: pytest.TempPathFactory, site: Site, ok: str) -> Iterator[BusyTab]:
    """One wait for the stuck-tab probe (tens of seconds) serves both tests that need it."""
    ws = Workspace(tmp_path_factory.mktemp("busy"))
    ws.ok("goto", site.page("/busy", BUSY))
    time.sleep(0.5)
    waiting = ws.start("goto", ok)
    other = ws.run("--session", "other", "goto", ok)
    out, err = waiting.communicate(timeout=60)
    yield BusyTab(ws, Result(waiting.returncode, out, err), other)
    ws.stop()


def test_leaving_a_busy_loop_closes_its_tab_and_goes_on_in_a_fresh_one(busy_tab: BusyTab, ok: str) -> None:
    ws, stuck = busy_tab.ws, busy_tab.stuck
    assert stuck.code == 0, stuck.err
    assert stuck.out.startswith("Navigated to")
    assert "note: the page being left was not answering" in stuck.err and "fresh tab" in stuck.err
    assert len(_tabs(ws)) == 1  # the stuck page was replaced, not left behind
    assert "calm page" in ws.ok("text")


def test_an_alert_loop_is_broken_and_the_next_command_says_so(
    fresh_workspace: Workspace, site: Site, ok: str
) -> None:
    ws = fresh_workspace
    ws.ok("newtab", ok)
    ws.ok("tab", "1")
    # `goto` settles after load, so the storm may already break while it settles: the note
    # then comes with it, else with the next command.
    first = ws.run("goto", site.page("/alerts", ALERTS))
    time.sleep(3)
    moved = ws.run("goto", ok)
    assert moved.code == 0 and moved.out.startswith("Navigated to")
    notes = first.err + moved.err
    assert "note: tab 1 was reopened at about:blank" in notes and "dialogs" in notes
    assert "note:" not in ws.run("url").err  # said once
    tabs = _tabs(ws)
    assert len(tabs) == 2 and tabs[0].startswith("*")


def test_a_popup_storm_is_closed(fresh_workspace: Workspace, site: Site) -> None:
    ws = fresh_workspace
    ws.ok("goto", site.page("/popups", POPUPS))
    deadline = time.monotonic() + 30
    tabs = _tabs(ws)
    while len(tabs) > 2 and time.monotonic() < deadline:
        time.sleep(1)
        tabs = _tabs(ws)
    assert len(tabs) <= 2, tabs
    assert "popup storm" in (ws.state_dir / "daemon.log").read_text()


def test_other_sessions_answer_while_a_tab_is_stuck(busy_tab: BusyTab) -> None:
    other, stuck = busy_tab.other, busy_tab.stuck
    assert other.code == 0, other.err
    assert other.out.startswith("Navigated to")
    assert stuck.code == 0 and "not answering" in stuck.err


# Chromium refuses `confirm()` in `beforeunload`, so asking again and again is a busy loop
# that starts only once a `goto` leaves the page: the probe before leaving sees nothing wrong.
CONFIRM_ON_LEAVING = """<title>leave?</title><p>stay</p><script>
addEventListener('beforeunload', () => { while (true) confirm('Leave this page?') });
</script>"""


def test_a_page_asking_to_confirm_forever_as_it_is_left_fails_the_goto_clearly(
    fresh_workspace: Workspace, site: Site, ok: str
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_STUCK_TIMEOUT"] = "5000"  # the page never answers: 5 s tell as well as 20
    ws.ok("goto", site.page("/confirm-loop", CONFIRM_ON_LEAVING))
    left = ws.run("goto", ok, timeout=60)
    assert left.code == 1, left.err
    assert "error: the page stopped answering" in left.err and "reopened at about:blank" in left.err
    assert ws.ok("goto", ok).startswith("Navigated to")
    assert "calm page" in ws.ok("text")
