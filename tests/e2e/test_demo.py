"""`make demo`'s script, run as the Makefile runs it, in a workspace of its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

DEMO = Path(__file__).resolve().parent.parent.parent / "scripts" / "demo.sh"


def test_the_demo_signs_up_on_the_built_in_page(fresh_workspace: Workspace) -> None:
    ws = fresh_workspace
    done = subprocess.run(
        ["sh", str(DEMO), str(Path(sys.executable).parent)],
        cwd=ws.root,
        env=ws.env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "$ browse goto --allow-file file://" in done.stdout
    assert "Clicked @e" in done.stdout and 'live region: "Welcome aboard' in done.stdout
    assert 'Team "Rocket Lab" is ready on the Enterprise plan' in done.stdout
    assert "error:" not in done.stderr
