"""The registry's kinds: every value is checked by the CLI before a daemon is contacted or started."""

from __future__ import annotations

import pytest

from conftest import Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.mark.parametrize(
    "argv",
    [
        ["snapshot", "-d", "x"],
        ["viewport", "huge"],
        ["tab", "zero"],
        ["wait", "soon"],
        ["press", "enter"],
        ["click", "@zz"],
    ],
)
def test_usage_errors_never_start_a_daemon(fresh_workspace: Workspace, argv: list[str]) -> None:
    result = fresh_workspace.run(*argv)
    assert result.code == 2, result.err
    lines = result.err.splitlines()
    assert len(lines) == 2 and lines[0].startswith("error: ") and lines[1].startswith("hint: ")
    assert "starting browser" not in result.err
    assert not fresh_workspace.state_dir.exists(), "bad usage must not start a daemon"
