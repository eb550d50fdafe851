"""The CLI trusts only what its own user made: a planted or foreign `.refbrowse/`
is passed over (with a note) or refused (with a clear error), state files are
never opened through symlinks, a TCP port named in a file is never used, and a
copy of a workspace does not drive the original's browser."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_transport import NOBODY, _squat, as_root

from conftest import BROWSE, Result, Workspace
from refbrowse import __version__, protocol

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SECRET = "hunter2-planted"


SRC = str(Path(protocol.__file__).parent.parent)
SYSTEM_PYTHON = "/usr/bin/python3"  # the venv's interpreter may sit in a home folder only its owner can enter


def _browse(cwd: Path, *args: str, user: str = "", timeout: float = 90) -> Result:
    """`browse ARGS` in `cwd`, as this user or as `user` (the CLI is stdlib only: any Python runs it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSE_")}
    argv = [BROWSE, *args]
    if user:
        argv = [
            "runuser",
            "-u",
            user,
            "--",
            "env",
            f"PYTHONPATH={SRC}",
            SYSTEM_PYTHON,
            "-m",
            "refbrowse",
            *args,
        ]
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Path]:
    """A folder anyone may write, like /tmp, with a project folder of ours (no .git) inside it."""
    folder = tmp_path / "shared"
    (folder / "proj").mkdir(parents=True)
    folder.chmod(0o1777)
    yield folder
    _browse(folder / "proj", "stop", timeout=60)


def _daemon_file(state_dir: Path, port: int) -> str:
    """A daemon.json as the victim's CLI would take for its own current daemon, reached over TCP."""
    config = protocol.config_hash({name: "" for name in protocol.LAUNCH_ENV})
    info = {
        "pid": 1,
        "socket": "",
        "port": port,
        "token": "planted-token-0123456789",
        "started": 1,
        "version": __version__,
        "mode": "headless",
        "config": config,
        "state_dir": os.path.realpath(state_dir),
    }
    return json.dumps(info)


def _plant(shared: Path, port: int, owner: int | None) -> Path:
    planted = shared / ".refbrowse"
    planted.mkdir(mode=0o777)
    planted.chmod(0o777)
    (planted / "daemon.json").write_text(_daemon_file(planted, port))
    if owner is not None:
        for path in (planted, planted / "daemon.json"):
            os.chown(path, owner, owner)
    return planted


@pytest.mark.parametrize("owner", [None, NOBODY], ids=["open-mode", "other-user"])
def test_a_planted_state_folder_above_is_passed_over_and_gets_nothing(
    shared: Path, owner: int | None
) -> None:
    if owner is not None and os.geteuid() != 0:
        pytest.skip("needs root to plant a folder as another user")
    port = _free_port()
    squatter = _squat("tcp", str(port), 8)
    _plant(shared, port, owner)
    result = _browse(shared / "proj", "js", f"'{SECRET}'")
    out, _ = squatter.communicate(timeout=60)
    assert result.code == 0 and SECRET in result.out, result.err
    assert out.splitlines()[0] == "0 0", out  # not even a connection
    assert f"note: ignoring {shared / '.refbrowse'}: " in result.err
    assert (shared / "proj" / ".refbrowse" / "daemon.json").exists()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_tcp_port_named_in_our_own_daemon_file_is_never_used(fresh_workspace: Workspace) -> None:
    port = _free_port()
    squatter = _squat("tcp", str(port), 8)
    fresh_workspace.state_dir.mkdir(mode=0o700)
    (fresh_workspace.state_dir / "daemon.lock").write_text("")
    (fresh_workspace.state_dir / "daemon.json").write_text(_daemon_file(fresh_workspace.state_dir, port))
    result = fresh_workspace.run("status")
    out, _ = squatter.communicate(timeout=60)
    assert out.splitlines()[0] == "0 0", out
    assert result.code == 3 and "no daemon is running" in result.err, result.err


def test_a_state_folder_that_is_a_symlink_is_refused(fresh_workspace: Workspace, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    fresh_workspace.state_dir.symlink_to(elsewhere)
    result = fresh_workspace.run("url")
    assert result.code == 3, result.err
    assert f"refusing the state directory {fresh_workspace.state_dir}: it is a symlink" in result.err
    assert "Traceback" not in result.err and not list(elsewhere.iterdir())


def test_a_state_file_planted_as_a_symlink_is_not_written_through(
    fresh_workspace: Workspace, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    fresh_workspace.state_dir.mkdir(mode=0o700)
    for name in ("daemon.log", "daemon.lock", "start.lock"):
        (fresh_workspace.state_dir / name).unlink(missing_ok=True)
        (fresh_workspace.state_dir / name).symlink_to(victim)
        result = fresh_workspace.run("url")
        assert result.code == 3 and "Traceback" not in result.err, result.err
        assert victim.read_text() == "precious\n"
        (fresh_workspace.state_dir / name).unlink()
    assert fresh_workspace.ok("url").strip() == "about:blank"


def test_a_state_folder_others_may_write_is_refused_with_the_way_out(fresh_workspace: Workspace) -> None:
    fresh_workspace.state_dir.mkdir()
    fresh_workspace.state_dir.chmod(0o757)
    result = fresh_workspace.run("status")
    assert result.code == 3 and "its mode is 0757, not 0700" in result.err, result.err
    assert f"chmod 700 {fresh_workspace.state_dir}" in result.err
    assert fresh_workspace.state_dir.stat().st_mode & 0o777 == 0o757  # not changed unasked
    fresh_workspace.state_dir.chmod(0o755)  # readable by others but ours alone to write: made private
    assert fresh_workspace.ok("url").strip() == "about:blank"
    assert fresh_workspace.state_dir.stat().st_mode & 0o777 == 0o700


def test_a_copy_of_a_running_workspace_does_not_drive_the_original(
    fresh_workspace: Workspace, tmp_path: Path
) -> None:
    fresh_workspace.ok("goto", "data:text/html,<title>original</title>")
    copy = Workspace(tmp_path / "ws-copy")
    shutil.rmtree(copy.root)
    subprocess.run(["cp", "-a", str(fresh_workspace.root), str(copy.root)], check=True)
    try:
        assert copy.ok("url").strip() == "about:blank"
        assert copy.daemon_info()["pid"] != fresh_workspace.daemon_info()["pid"]
        copy.ok("goto", "data:text/html,<title>copy</title>")
        assert fresh_workspace.ok("url").strip() == "data:text/html,<title>original</title>"
    finally:
        copy.stop()


@as_root
@pytest.mark.skipif(not os.path.exists(SYSTEM_PYTHON), reason="needs a Python any user may run")
def test_another_users_state_folder_is_a_clear_error_not_no_daemon(fresh_workspace: Workspace) -> None:
    shared = Path(tempfile.mkdtemp(prefix="refbrowse-shared-"))
    shared.chmod(0o755)
    ws = Workspace(shared / "ws")
    try:
        ws.root.chmod(0o755)
        ws.ok("goto", "about:blank")
        for command in ("status", "url", "stop"):
            result = _browse(ws.root, command, user="nobody")
            assert result.code == 3, (command, result.err)
            assert "belongs to another user (uid 0)" in result.err, result.err
            assert "Traceback" not in result.err and "no daemon" not in result.err
        assert ws.ok("url").strip() == "about:blank"
    finally:
        ws.stop()  # whatever failed: a daemon left running would burn the rest of the run's time
        shutil.rmtree(shared)
