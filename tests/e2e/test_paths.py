"""Paths a command writes or hands to a page: no workspace's state directory, no
folder of private keys unless named, no symlink swapped in after the check, no
FIFO that would block a worker for ever."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """A workspace that is the home folder too, as asked for by naming its state directory."""
    ws = Workspace(tmp_path_factory.mktemp("home"))
    ws.env["HOME"] = str(ws.root)
    ws.env["BROWSE_STATE_DIR"] = str(ws.state_dir)
    ws.env["TMPDIR"] = str(ws.root / "tmp")
    (ws.root / "tmp").mkdir()
    yield ws
    ws.stop()


@pytest.fixture(scope="module")
def page(home: Workspace, site: Site) -> str:
    url = site.page("/paths", "<h1>Paths</h1><input type=file id=f>")
    home.ok("goto", url)
    return url


def _other_state_dir(root: Path, name: str = ".refbrowse") -> Path:
    state = root / name
    state.mkdir(parents=True, mode=0o700)
    (state / "daemon.json").write_text('{"pid": 1}')
    (state / "daemon.lock").write_text("1\n")
    (state / "state").mkdir()
    return state


@pytest.mark.parametrize("name", [".refbrowse", "custom-state"])
def test_another_workspaces_state_directory_is_never_written_or_uploaded(
    home: Workspace, page: str, name: str
) -> None:
    other = _other_state_dir(home.root / f"other-{name}", name)
    before = (other / "daemon.json").read_text()
    for args in (
        ("screenshot", str(other / "daemon.json")),
        ("snapshot", "-o", str(other / "state" / "default.json")),
        ("pdf", str(other / "x.pdf")),
        ("upload", "#f", str(other / "daemon.json")),
    ):
        result = home.run(*args, "--allow-path", str(other))
        assert result.code == 2 and f"it is in the state directory {other}" in result.err, (args, result.err)
    assert (other / "daemon.json").read_text() == before
    assert not (other / "state" / "default.json").exists() and not (other / "x.pdf").exists()


def test_private_keys_are_not_uploadable_unless_their_folder_is_named(home: Workspace, page: str) -> None:
    ssh = home.root / ".ssh"
    ssh.mkdir(mode=0o700, exist_ok=True)
    (ssh / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    for extra in ((), ("--allow-path", str(home.root))):
        result = home.run("upload", "#f", str(ssh / "id_rsa"), *extra)
        assert result.code == 2 and f"it is in {ssh}, which holds private keys" in result.err, result.err
        assert f"--allow-path {ssh}" in result.err
    result = home.run("upload", "#f", str(ssh / "id_rsa"), BROWSE_ALLOWED_PATHS=str(home.root))
    assert result.code == 2, result.err
    assert strip_fence(home.ok("js", "document.getElementById('f').files.length")).strip() == "0"
    result = home.run("screenshot", str(ssh / "authorized_keys"))
    assert result.code == 2 and not (ssh / "authorized_keys").exists()
    home.ok("upload", "#f", str(ssh / "id_rsa"), "--allow-path", str(ssh))
    assert strip_fence(home.ok("js", "document.getElementById('f').files[0].name")).strip() == "id_rsa"


def test_a_folder_swapped_for_a_symlink_never_gets_a_screenshot_outside(
    home: Workspace, page: str, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    shots = home.root / "shots"
    stop = threading.Event()

    def flip() -> None:
        """`shots` is a real folder, then a symlink to `outside`, then a folder again, as fast as it goes."""
        while not stop.is_set():
            for make in (shots.mkdir, lambda: shots.symlink_to(outside)):
                with contextlib.suppress(OSError):
                    shots.unlink() if shots.is_symlink() else shutil.rmtree(shots)
                with contextlib.suppress(OSError):
                    make()
                time.sleep(0.002)

    flipper = threading.Thread(target=flip, daemon=True)
    flipper.start()
    try:
        results = [home.run("screenshot", "--viewport", str(shots / f"{n}.png")) for n in range(40)]
    finally:
        stop.set()
        flipper.join()
    assert list(outside.iterdir()) == []
    assert all(r.code == 0 or "refusing" in r.err or "No such file" in r.err for r in results), results


@pytest.mark.parametrize(
    "args", [("cookie-import", "{}"), ("eval", "{}"), ("upload", "#f", "{}"), ("screenshot", "{}")]
)
def test_a_fifo_is_refused_at_once_and_blocks_nothing(
    home: Workspace, page: str, args: tuple[str, ...]
) -> None:
    fifo = home.root / f"fifo-{args[0]}"
    if not fifo.exists():
        os.mkfifo(fifo)
    argv = [str(fifo) if arg == "{}" else arg for arg in args]
    for _ in range(8):  # more than the shared executor has spare threads
        result = home.run(*argv, timeout=30)
        assert result.code == 2 and "it is a FIFO" in result.err, result.err
    assert "Saved" in home.ok("screenshot", "--viewport", str(home.root / "after-fifo.png"), timeout=30)
