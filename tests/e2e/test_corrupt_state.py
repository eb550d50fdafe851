"""Corrupt or foreign saved-state files never brick a workspace: each is moved
aside (`*.corrupt`, kept), the session starts clean with a one-line warning,
and saving works again at once."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_state import app, wait_until_saved

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["app"]

DEEP = "[" * 100_000 + "]" * 100_000
WRONG_COOKIE = (
    '{"cookies": [{"name": "sid", "value": "v", "domain": "127.0.0.1", "path": "/",'
    ' "secure": "yes", "httpOnly": 1, "expires": "soon", "sameSite": 3}], "origins": []}'
)
WRONG_ORIGIN = '{"cookies": [], "origins": [{"origin": "http://127.0.0.1", "localStorage": "none"}]}'


def _write(text: str | bytes) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)

    return make


def _directory(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("{}")


def _dangling_symlink(path: Path) -> None:
    path.symlink_to(path.parent / "nowhere.json")


def _unreadable(path: Path) -> None:
    path.write_text('{"cookies": [], "origins": []}')
    path.chmod(0)


CORRUPTIONS: dict[str, Callable[[Path], None]] = {
    "truncated JSON": _write('{"cookies": [{"name": '),
    "empty file": _write(""),
    "binary junk": _write(bytes(range(256)) * 8),
    "a list at the top": _write("[]"),
    "a string at the top": _write('"cookies"'),
    "null": _write("null"),
    "cookies not a list": _write('{"cookies": {}, "origins": []}'),
    "a cookie with wrong types": _write(WRONG_COOKIE),
    "an origin with wrong types": _write(WRONG_ORIGIN),
    "nesting too deep": _write(DEEP),
    "a directory": _directory,
    "a dangling symlink": _dangling_symlink,
    "no read permission": _unreadable,
}


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_a_bad_saved_state_is_kept_aside_and_the_session_starts_clean(
    fresh_workspace: Workspace, app: Site, corruption: str
) -> None:
    if corruption == "no read permission" and os.geteuid() == 0:
        pytest.skip("root reads a file whatever its mode")
    folder = fresh_workspace.state_dir / "state"
    folder.mkdir(parents=True)
    CORRUPTIONS[corruption](folder / "session-default.json")
    first = fresh_workspace.run("goto", app.url("/st/account"))
    assert first.code == 0, first.err
    warnings = [line for line in first.err.splitlines() if line.startswith("note: ")]
    assert len(warnings) == 1 and "session default: saved state unreadable" in warnings[0], first.err
    kept = [f.name for f in folder.iterdir() if f.name.endswith(".corrupt")]
    assert len(kept) == 1 and kept[0].startswith("session-default.json."), kept
    assert kept[0] in warnings[0]
    # The warning is said once, and the session saves again.
    assert "note:" not in fresh_workspace.run("url").err
    wait_until_saved(fresh_workspace)
    assert (folder / "session-default.json").is_file()


def test_a_file_where_the_state_folder_should_be_is_kept_aside(fresh_workspace: Workspace, app: Site) -> None:
    fresh_workspace.state_dir.mkdir(mode=0o700)
    (fresh_workspace.state_dir / "state").write_text("not a folder")
    fresh_workspace.ok("goto", app.url("/st/account"))
    wait_until_saved(fresh_workspace)
    assert (fresh_workspace.state_dir / "state" / "session-default.json").is_file()
    assert any(
        f.name.startswith("state.") and f.name.endswith(".corrupt")
        for f in fresh_workspace.state_dir.iterdir()
    )
