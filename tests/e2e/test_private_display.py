"""Headed mode's own Xvfb lets in only the daemon's clients: without the cookie
in its authority file, a client (another local user's, say) is refused."""

from __future__ import annotations

import re
import shutil
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import Workspace

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb not installed (`make xvfb`)"),
]


@pytest.fixture
def headed(tmp_path: Path) -> Iterator[Workspace]:
    ws = Workspace(tmp_path / "headed")
    ws.env.pop("DISPLAY", None)
    ws.env.pop("WAYLAND_DISPLAY", None)
    yield ws
    ws.stop()


def _x_setup_answer(display: str) -> int:
    """The first byte of an X server's answer to a connection with no credentials: 1 is "welcome"."""
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(10)
    sock.connect(f"/tmp/.X11-unix/X{display.lstrip(':')}")
    sock.sendall(struct.pack("<cxHHHHxx", b"l", 11, 0, 0, 0))
    answer = sock.recv(1)
    sock.close()
    return answer[0]


def test_the_private_display_refuses_a_client_without_its_cookie(headed: Workspace) -> None:
    headed.ok("goto", "about:blank", BROWSE_HEADED="1")
    found = re.search(r"display (:\d+)", headed.ok("status", BROWSE_HEADED="1"))
    assert found
    assert _x_setup_answer(found.group(1)) == 0  # Failed: no cookie, no entry
    assert headed.ok("goto", "data:text/html,<title>still</title>", BROWSE_HEADED="1")
