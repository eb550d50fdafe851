"""Half-dead daemons do not exist.

Kill the daemon mid-command, five times: every time the next command works and
the login survives. Kill Playwright's node driver or Chromium: the daemon lives
on, starts new ones and restores every session (its login, its tabs) from the
saved state; the command that was running, or else the next one, fails once
saying so. Lost more often than the bound allows in a minute, the daemon ends
and the next one says why.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from test_state import app, greeting, log_in, visit_account, wait_until_saved

from conftest import FixtureHandler, Site, Workspace
from killing import driver_pid, held_route, kill_mid_command, target_pid, wait_for_exit
from refbrowse.daemon.core.browser.revive import MAX_RESTARTS

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["app"]  # the login app fixture, shared with test_state

ROUNDS = int(os.environ.get("BROWSE_KILL_ROUNDS", "5"))
RESTARTED = "and has been restarted"
LOST_BECAUSE = {"driver": "the node driver exited", "chromium": "the browser disconnected"}


def kill(ws: Workspace, target: str) -> int:
    """SIGKILL the workspace's `target` process, and wait until the daemon has heard of it."""
    log = ws.state_dir / "daemon.log"
    heard = log.read_text().count("browser lost:")
    victim = target_pid(ws, target)
    os.kill(victim, signal.SIGKILL)
    wait_for_exit(victim)
    deadline = time.monotonic() + 30
    while log.read_text().count("browser lost:") == heard:
        assert time.monotonic() < deadline, "the daemon never heard of the loss"
        time.sleep(0.05)
    return victim


def test_the_daemon_killed_mid_command_then_the_next_command_works_and_the_login_survives(
    fresh_workspace: Workspace, app: Site
) -> None:
    log_in(fresh_workspace, app, "user-daemon")
    wait_until_saved(fresh_workspace)
    held = held_route(app, "/kill-daemon")
    for round_ in range(ROUNDS):
        interrupted, old = kill_mid_command(fresh_workspace, "daemon", held)
        # The interrupted command is sent again to a fresh daemon, or fails in two clear lines.
        assert interrupted.code == 0 or interrupted.err.startswith("error: "), (round_, interrupted)
        assert visit_account(fresh_workspace, app) == "Welcome user-daemon", round_
        assert fresh_workspace.daemon_info()["pid"] != old
        assert "healthy" in fresh_workspace.ok("status").splitlines()[0]


@pytest.mark.parametrize("target", ["driver", "chromium"])
def test_a_killed_driver_or_chromium_is_restarted_with_the_login_and_the_tab(
    fresh_workspace: Workspace, app: Site, target: str
) -> None:
    ws = fresh_workspace
    log_in(ws, app, f"user-{target}")  # the tab ends on the account page
    wait_until_saved(ws)
    daemon = ws.daemon_info()["pid"]
    kill(ws, target)
    told = ws.run("url")
    assert told.code == 3, told
    said = told.err.splitlines()[0]
    assert said.startswith(f"error: the browser was lost ({LOST_BECAUSE[target]}) {RESTARTED}"), said
    assert "session default was restored from its state saved at " in said, said
    assert "not reopened" not in said, said
    assert ws.ok("url").strip() == app.url("/st/account")
    assert greeting(ws) == f"Welcome user-{target}"  # the tab was reloaded with the restored cookie
    assert ws.daemon_info()["pid"] == daemon
    status = ws.ok("status")
    assert status.splitlines()[0].endswith(": healthy"), status
    assert "browser: restarted 1 time; last at " in status, status
    assert f"after it was lost ({LOST_BECAUSE[target]})" in status, status


@pytest.mark.parametrize("target", ["driver", "chromium"])
def test_a_command_running_when_the_driver_or_chromium_is_killed_says_so_and_the_next_works(
    fresh_workspace: Workspace, app: Site, target: str
) -> None:
    ws = fresh_workspace
    log_in(ws, app, f"user-{target}")
    wait_until_saved(ws)
    daemon = ws.daemon_info()["pid"]
    held = held_route(app, f"/kill-{target}")
    for round_ in range(min(ROUNDS, MAX_RESTARTS)):
        interrupted, _ = kill_mid_command(ws, target, held)
        assert interrupted.code == 3, (round_, interrupted)
        assert RESTARTED in interrupted.err, (round_, interrupted)
        # The tab the command ran on may be what killed the browser: it is not reopened blindly.
        skipped = f"not reopened: {app.url('/st/account')} (a command was running on it)"
        assert skipped in interrupted.err, (round_, interrupted)
        assert visit_account(ws, app) == f"Welcome user-{target}", round_
        assert ws.daemon_info()["pid"] == daemon


def test_a_page_that_kills_the_driver_as_it_loads_is_not_reopened_again(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    asked: list[str] = []

    def killer(handler: FixtureHandler) -> None:
        """The first visit loads a page that reloads itself; every later one kills the driver."""
        asked.append(handler.path)
        if len(asked) == 1:
            # late enough that the goto has answered, even on a loaded machine
            handler.reply("<title>bomb</title><script>setTimeout(() => location.reload(), 8000)</script>")
        else:
            os.kill(driver_pid(int(str(ws.daemon_info()["pid"]))), signal.SIGKILL)
            handler.reply("<title>too late</title>")  # a dropped connection would be asked again

    url = site.route("/driver-killer", killer)
    ws.ok("goto", "about:blank")  # the browser's start is not part of the goto that loads the page
    ws.ok("goto", url)
    log = ws.state_dir / "daemon.log"
    deadline = time.monotonic() + 60
    while "browser restarted" not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.1)
    told = ws.run("url")
    assert told.code == 3, told
    assert f"not reopened: {url} (the browser was lost again while it loaded)" in told.err, told.err
    assert ws.ok("url").strip() == "about:blank"
    assert len(asked) == 3  # its own reload, and the one reopening after the first restart
    assert "browser: restarted 1 time" in ws.ok("status")


def test_a_driver_lost_again_and_again_ends_the_daemon_and_the_next_one_says_why(
    fresh_workspace: Workspace,
) -> None:
    ws = fresh_workspace
    ws.ok("goto", "about:blank")
    daemon = int(str(ws.daemon_info()["pid"]))
    for restart in range(1, MAX_RESTARTS + 1):
        kill(ws, "driver")
        status = ws.ok("status")  # waits for the restart under way
        assert f"browser: restarted {restart} time" in status, status
    os.kill(target_pid(ws, "driver"), signal.SIGKILL)
    wait_for_exit(daemon, 60)
    why = f"the browser was lost {MAX_RESTARTS + 1} times within 60 s (last: the node driver exited)"
    assert why in (ws.state_dir / "last-exit.txt").read_text()
    first = ws.run("url")
    assert first.code == 0, first.err
    notes = [line for line in first.err.splitlines() if line.startswith("note: the previous daemon ended")]
    assert len(notes) == 1 and why in notes[0], first.err
    assert "note:" not in ws.run("url").err


def test_status_never_says_healthy_for_a_dead_driver(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank")
    driver = target_pid(fresh_workspace, "driver")
    os.kill(driver, signal.SIGKILL)
    # kill() returns before the kernel has ended the process (later under load): status is
    # asked about a driver that is gone, whatever the timing, once it is.
    wait_for_exit(driver, 30)
    status = fresh_workspace.run("status")
    first = status.out.splitlines()[0]
    if first.endswith(": healthy"):  # only with a new driver, started after the loss
        assert "browser: restarted 1 time" in status.out, status.out
        assert target_pid(fresh_workspace, "driver") != driver
    else:
        assert ": unhealthy (" in first, status.out
