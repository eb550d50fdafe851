"""A FIFO (or a symlink) planted where a state file goes never wedges the workspace: every state file
is opened without following a symlink and without blocking, and what is not a regular file is set
aside or passed over at once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from test_state import app

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["app"]

STATE_FILES = (
    "state/session-default.json",
    "state/settings-default.json",
    "state/tabs-default.json",
    "browser.json",
)


def test_fifos_as_every_state_file_cost_nothing(fresh_workspace: Workspace, app: Site) -> None:
    state = fresh_workspace.state_dir
    (state / "state").mkdir(parents=True, mode=0o700)
    state.chmod(0o700)
    for name in STATE_FILES:
        os.mkfifo(state / name, 0o600)
    first = fresh_workspace.run("goto", app.url("/st/account"), timeout=30)
    assert first.code == 0, first.err
    assert "saved state unreadable" in first.err, first.err
    for _ in range(3):  # each command answers at once: nothing holds the workspace's lock
        assert fresh_workspace.run("url", timeout=15).code == 0
    assert fresh_workspace.run("stop", timeout=30).code == 0
    assert not any(stat_is_fifo(state / name) for name in STATE_FILES)  # set aside or replaced
    fresh_workspace.ok("goto", app.url("/st/account"), timeout=30)


def stat_is_fifo(path: Path) -> bool:
    return path.is_fifo()


def test_a_saved_state_symlinked_elsewhere_is_not_read_through(
    fresh_workspace: Workspace, app: Site, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    cookie = {"name": "planted", "value": "v", "domain": "127.0.0.1", "path": "/", "expires": -1}
    elsewhere.write_text(json.dumps({"cookies": [cookie], "origins": []}))
    folder = fresh_workspace.state_dir / "state"
    folder.mkdir(parents=True)
    (folder / "session-default.json").symlink_to(elsewhere)
    result = fresh_workspace.run("goto", app.url("/st/account"), timeout=30)
    assert result.code == 0 and "saved state unreadable" in result.err, result.err
    assert "planted" not in fresh_workspace.ok("cookies")
    assert elsewhere.read_text().count("planted") == 1  # never written through either


def test_a_fifo_as_a_named_state_is_refused_at_once(fresh_workspace: Workspace, app: Site) -> None:
    fresh_workspace.ok("goto", app.url("/st/account"))
    named = fresh_workspace.state_dir / "states"
    named.mkdir(exist_ok=True, mode=0o700)
    os.mkfifo(named / "planted.json", 0o600)
    result = fresh_workspace.run("state", "load", "planted", timeout=30)
    assert result.code != 0 and "not a regular file" in result.err, result.err
    assert fresh_workspace.run("url", timeout=15).code == 0
