"""A stopped Playwright driver is said to be the driver's fault, never the page's.

With the node driver stopped (SIGSTOP), a command used to wait 20 s and say
"the page stopped answering", throwing the tab away, or time out after 40 s.
Now a command says at once that the driver process is stopped and how to go
on, a command already running says so when its page seems not to answer, the
tab keeps its page, and after SIGCONT everything works again.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest

from conftest import Result, Site, Workspace
from killing import driver_pid, held_route

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PAGE = "<title>kept</title><p>Kept through a stopped driver</p>"


@pytest.fixture
def stopped(fresh_workspace: Workspace, site: Site) -> Iterator[tuple[Workspace, int, str]]:
    """A workspace on a page, and its driver's pid, the driver let go on at teardown."""
    url = site.page("/driver/kept", PAGE)
    fresh_workspace.env["BROWSE_STUCK_TIMEOUT"] = "5000"  # a running command's page is probed for 5 s, not 20
    fresh_workspace.ok("goto", url)
    pid = driver_pid(int(str(fresh_workspace.daemon_info()["pid"])))
    try:
        yield fresh_workspace, pid, url
    finally:
        os.kill(pid, signal.SIGCONT)


def said_stopped(result: Result, pid: int) -> bool:
    return (
        result.code == 3
        and f"driver process (pid {pid}) is stopped" in result.err
        and "not the page" in result.err
        and f"kill -CONT {pid}" in result.err
    )


def test_a_command_says_at_once_that_the_driver_is_stopped(stopped: tuple[Workspace, int, str]) -> None:
    ws, pid, url = stopped
    os.kill(pid, signal.SIGSTOP)
    for command in (("goto", url), ("text",), ("click", "p")):
        result = ws.run(*command)
        assert said_stopped(result, pid), (command, result)
        assert "page stopped answering" not in result.err
    assert f"the node driver, pid {pid}, is stopped" in ws.ok("status")
    os.kill(pid, signal.SIGCONT)
    assert "Kept through a stopped driver" in ws.ok("text")
    assert ws.ok("url").strip() == url


def test_a_command_running_when_the_driver_stops_blames_the_driver(
    stopped: tuple[Workspace, int, str], site: Site
) -> None:
    ws, pid, _ = stopped
    held = held_route(site, "/driver/held")
    results: list[Result] = []
    going = threading.Thread(target=lambda: results.append(ws.run("goto", held.url)))
    going.start()
    try:
        assert held.asked.wait(60), "the browser never asked for the page"
        os.kill(pid, signal.SIGSTOP)  # the goto is surely under way
    finally:
        held.released.set()
    going.join(120)
    assert results and said_stopped(results[0], pid), results
    os.kill(pid, signal.SIGCONT)
    assert ws.run("url").code == 0
    assert "about:blank" not in ws.ok("url")  # the tab was not thrown away for the page's sake
