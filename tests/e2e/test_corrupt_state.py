"""Corrupt or foreign saved-state files never brick a workspace: each is moved
aside (`*.corrupt`, kept), the session starts clean with a one-line warning,
and saving works again at once."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_state import app, wait_until_saved

from conftest import Site, Workspace, wait_for

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


def test_a_bad_saved_state_at_a_cold_start_is_kept_aside_and_the_session_starts_clean(
    fresh_workspace: Workspace, app: Site
) -> None:
    folder = fresh_workspace.state_dir / "state"
    folder.mkdir(parents=True)
    CORRUPTIONS["truncated JSON"](folder / "session-default.json")
    _opens_clean_and_saves_again(fresh_workspace, app, "default")


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_a_bad_saved_state_is_kept_aside_and_the_session_starts_clean(
    workspace: Workspace, app: Site, corruption: str
) -> None:
    # One daemon for every kind: a session's saved state is read as the session opens (the cold
    # start's default session above goes the same way), so each kind gets a session of its own.
    if corruption == "no read permission" and os.geteuid() == 0:
        pytest.skip("root reads a file whatever its mode")
    session = f"bad{list(CORRUPTIONS).index(corruption)}"
    folder = workspace.state_dir / "state"
    folder.mkdir(parents=True, exist_ok=True)
    CORRUPTIONS[corruption](folder / f"session-{session}.json")
    _opens_clean_and_saves_again(workspace, app, session)


def _opens_clean_and_saves_again(ws: Workspace, app: Site, session: str) -> None:
    folder = ws.state_dir / "state"
    first = ws.run("--session", session, "goto", app.url("/st/account"))
    assert first.code == 0, first.err
    warnings = [line for line in first.err.splitlines() if line.startswith("note: ")]
    assert len(warnings) == 1 and f"session {session}: saved state unreadable" in warnings[0], first.err
    kept = [f.name for f in folder.iterdir() if f.name.endswith(".corrupt")]
    kept = [name for name in kept if name.startswith(f"session-{session}.json.")]
    assert len(kept) == 1, kept
    assert kept[0] in warnings[0]
    # The warning is said once, and the session saves again.
    assert "note:" not in ws.run("--session", session, "url").err
    wait_until_saved(ws)
    assert wait_for(lambda: (folder / f"session-{session}.json").is_file())


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
