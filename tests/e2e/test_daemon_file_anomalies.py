"""A damaged daemon.json or daemon.lock is found out in moments, never waited on for a minute.

Each used to make every command, `stop` too, wait 60 s (a FIFO for ever) with a
hint that named no pid. The CLI now asks the daemon that holds the lock (the
kernel says which process that is) to write daemon.json again, moves a
directory in its way aside, never opens a special file, and names the pid of a
lock holder that will not answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _elsewhere(state: Path) -> None:
    info = json.loads((state / "daemon.json").read_text())
    info.update(socket=str(state.parent / "nowhere.sock"), token="x" * 43)
    (state / "daemon.json").write_text(json.dumps(info))


def _garbage_lock(state: Path) -> None:
    (state / "daemon.json").unlink()
    (state / "daemon.lock").write_bytes(b"garbage\x00\xff")


def _directory(state: Path) -> None:
    (state / "daemon.json").unlink()
    (state / "daemon.json").mkdir()


def _fifo(state: Path) -> None:
    (state / "daemon.json").unlink()
    os.mkfifo(state / "daemon.json")


ANOMALIES: dict[str, Callable[[Path], None]] = {
    "daemon.json pointing elsewhere": _elsewhere,
    "a garbage lock and no daemon.json": _garbage_lock,
    "a directory as daemon.json": _directory,
    "a FIFO as daemon.json": _fifo,
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    ws = Workspace(tmp_path_factory.mktemp("anomalies"))
    ws.ok("goto", "about:blank")
    yield ws
    ws.stop()


@pytest.mark.parametrize("anomaly", ANOMALIES)
def test_a_damaged_daemon_file_is_recovered_from_while_the_daemon_lives(
    running: Workspace, anomaly: str
) -> None:
    pid = running.daemon_info()["pid"]
    ANOMALIES[anomaly](running.state_dir)
    result = running.run("url", timeout=20)
    assert result.code == 0, result.err
    assert result.out.strip() == "about:blank"
    assert running.daemon_info()["pid"] == pid
    assert "Traceback" not in (running.state_dir / "daemon.log").read_text()


def test_a_lock_held_by_another_process_is_named(fresh_workspace: Workspace) -> None:
    state = fresh_workspace.state_dir
    state.mkdir(mode=0o700)
    (state / "daemon.lock").write_text("")
    holder = subprocess.Popen([shutil.which("flock") or "flock", str(state / "daemon.lock"), "sleep", "60"])
    try:
        result = fresh_workspace.run("url", timeout=20)
    finally:
        holder.kill()
        holder.wait()
    assert result.code == 3, result.err
    assert f"pid {holder.pid}" in result.err and f"kill {holder.pid}" in result.err
