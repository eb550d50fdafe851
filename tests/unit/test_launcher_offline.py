"""The CLI's cold path when things go wrong: a daemon that dies starting, hangs, or will not exit."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from refbrowse.cli import launcher
from refbrowse.errors import Unavailable
from refbrowse.protocol import LIFE_LOCK, ensure_state_dir, state_path

HOLD_LOCK = """
import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def locked_state_dir(tmp_path: Path) -> Iterator[str]:
    """A state directory whose life lock a live process holds, as a daemon that never answers would."""
    state_dir = str(tmp_path / ".refbrowse")
    ensure_state_dir(state_dir)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, state_path(state_dir, LIFE_LOCK)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    yield state_dir
    holder.kill()
    holder.wait()


def test_a_daemon_that_holds_the_lock_but_never_answers_is_reported(
    locked_state_dir: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(launcher, "START_TIMEOUT", 0.3)
    assert launcher.daemon_alive(locked_state_dir)
    with pytest.raises(Unavailable) as caught:
        launcher.stop_daemon(locked_state_dir)
    assert "holds this workspace's lock but does not answer" in caught.value.message
    assert "daemon.log" in caught.value.hint and caught.value.exit_code == 3


def test_a_daemon_that_will_not_exit_is_reported_with_its_pid_file(locked_state_dir: str) -> None:
    with pytest.raises(Unavailable) as caught:
        launcher.wait_for_exit(locked_state_dir, timeout=0.2)
    assert "did not exit within" in caught.value.message and "daemon.json" in caught.value.hint


def test_stopping_where_no_daemon_runs_is_not_an_error(tmp_path: Path) -> None:
    state_dir = str(tmp_path / ".refbrowse")
    ensure_state_dir(state_dir)
    assert launcher.daemon_alive(state_dir) is False
    assert launcher.stop_daemon(state_dir) is False
