"""Every command has a hard bound, cleanup and shutdown included, whatever the browser does.

A stopped Chromium process (SIGSTOP) stands in for a wedged browser: it never
answers again, so anything that waits on it without a bound hangs.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass

import pytest

from conftest import Result, Workspace, _descendants, browser_pid
from killing import wait_for_exit

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SHUTDOWN_BOUND_S = 25  # the daemon's own bound is 15 s, plus its watchdog's 5 s


@dataclass
class Hung:
    """A workspace whose Chromium is frozen: the daemon's pid and the browser's processes."""

    ws: Workspace
    daemon: int
    tree: list[int]


def freeze(ws: Workspace) -> Hung:
    ws.ok("goto", "data:text/html,<title>t</title><p>hello</p>")
    daemon = int(str(ws.daemon_info()["pid"]))
    browser = browser_pid(daemon)
    tree = [browser, *_descendants(browser)]
    os.kill(browser, signal.SIGSTOP)
    return Hung(ws, daemon, tree)


def kill_tree(hung: Hung) -> None:
    """Whatever the test left, never a stopped Chromium."""
    for pid in hung.tree:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def hung(fresh_workspace: Workspace) -> Iterator[Hung]:
    frozen = freeze(fresh_workspace)
    yield frozen
    kill_tree(frozen)


def _stop(hung: Hung) -> tuple[Result, float]:
    """`stop`, and how long until the daemon was gone."""
    began = time.monotonic()
    result = hung.ws.run("stop", timeout=120)
    wait_for_exit(hung.daemon, SHUTDOWN_BOUND_S)
    return result, time.monotonic() - began


def _sigterm(hung: Hung) -> None:
    os.kill(hung.daemon, signal.SIGTERM)
    wait_for_exit(hung.daemon, SHUTDOWN_BOUND_S)


def _late_js(hung: Hung) -> tuple[Result, float]:
    """A command that cannot finish on the frozen browser, and how long it took to fail."""
    began = time.monotonic()
    result = hung.ws.run("--timeout", "1000", "js", "1 + 1", timeout=60)
    return result, time.monotonic() - began


@dataclass
class Waits:
    """Three hung workspaces, each with its slow wait under way."""

    stop: Hung
    stopped: Future[tuple[Result, float]]
    sigterm: Hung
    terminated: Future[None]
    late: Hung
    failed: Future[tuple[Result, float]]


@pytest.fixture(scope="module")
def waits(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Waits]:
    """The slow waits on a hung browser (the 15 s shutdown bound twice, a command's 11 s limit),
    each on a workspace of its own, run side by side: they only wait, so they need not wait in turn."""
    workspaces = [Workspace(tmp_path_factory.mktemp(name)) for name in ("stop", "sigterm", "late")]
    frozen: list[Hung] = []
    try:
        frozen.extend(freeze(ws) for ws in workspaces)
        stop, sigterm, late = frozen
        with ThreadPoolExecutor(len(frozen)) as pool:
            yield Waits(
                stop, pool.submit(_stop, stop),
                sigterm, pool.submit(_sigterm, sigterm),
                late, pool.submit(_late_js, late),
            )  # fmt: skip
    finally:
        for each in frozen:
            kill_tree(each)
        for ws in workspaces:
            ws.stop()


def _gone(pids: list[int], within_s: float = 5) -> bool:
    """True once every pid has exited (SIGKILL takes a moment to land)."""
    deadline = time.monotonic() + within_s
    while not _all_exited(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _all_exited(pids)


def _all_exited(pids: list[int]) -> bool:
    return all(not os.path.exists(f"/proc/{pid}") or "State:\tZ" in _status(pid) for pid in pids)


def _status(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/status") as f:
            return f.read()
    except OSError:
        return "State:\tZ"


def test_the_giant_viewport_that_wedged_screenshots_is_refused(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "data:text/html,<p>hi")
    giant = fresh_workspace.run("viewport", "99999x99999")
    assert giant.code == 2 and "each side must be from 10 to 10000" in giant.err, giant
    shot = fresh_workspace.run("screenshot", "--viewport", str(fresh_workspace.root / "s.png"), timeout=60)
    assert shot.code == 0, shot.err
    began = time.monotonic()
    assert fresh_workspace.ok("stop", timeout=60).strip() == "Stopped."
    assert time.monotonic() - began < SHUTDOWN_BOUND_S


@pytest.mark.parametrize("size", ["10001x800", "800x5", "9000x9000 --scale 2"])
def test_viewport_sizes_out_of_range_are_refused(workspace: Workspace, size: str) -> None:
    result = workspace.run("viewport", *size.split())
    assert result.code == 2 and "\nerror: viewport " in "\n" + result.err and "hint: " in result.err


def test_stop_ends_the_daemon_and_its_browser_even_when_chromium_hangs(waits: Waits) -> None:
    result, took = waits.stopped.result(timeout=120)
    assert result.code == 0, result.err
    assert took < SHUTDOWN_BOUND_S
    assert _gone(waits.stop.tree), "the daemon left its Chromium processes behind"


def test_sigterm_ends_a_daemon_whose_browser_hangs(waits: Waits) -> None:
    waits.terminated.result(timeout=120)
    assert _gone(waits.sigterm.tree)
    assert waits.sigterm.ws.ok("url", timeout=120).startswith("about:blank")  # a fresh daemon


def test_a_second_sigterm_ends_the_daemon_at_once(hung: Hung) -> None:
    os.kill(hung.daemon, signal.SIGTERM)
    time.sleep(0.5)
    os.kill(hung.daemon, signal.SIGTERM)
    wait_for_exit(hung.daemon, 5)
    assert _gone(hung.tree)


def test_a_timed_out_command_on_a_hung_browser_frees_its_tab(waits: Waits) -> None:
    result, took = waits.failed.result(timeout=120)
    assert result.code == 4 and "did not finish in 11000 ms" in result.err, result
    assert took < 11 + 5
    # `url` takes the same tab's lock; it answers from the daemon without the browser.
    began = time.monotonic()
    assert waits.late.ws.ok("--timeout", "1000", "url", timeout=30).startswith("data:text/html")
    assert time.monotonic() - began < 5
