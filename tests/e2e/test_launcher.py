"""The CLI's cold path when things go wrong: a daemon that dies starting, hangs, or will not exit."""

from __future__ import annotations

import socket

import pytest

from conftest import Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_a_daemon_that_dies_while_starting_is_reported_with_its_log(fresh_workspace: Workspace) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = fresh_workspace.run("url", BROWSE_PORT=str(port))
    assert result.code == 3, result.err
    assert "the daemon exited while starting" in result.err
    assert "daemon.log" in result.err and "hint: " in result.err
