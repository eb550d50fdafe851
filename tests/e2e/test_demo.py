"""`browse demo` (what `make demo` runs), in a workspace of its own."""

from __future__ import annotations

import pytest

from conftest import Workspace
from refbrowse.demo import url

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_the_demo_signs_up_on_the_built_in_page(fresh_workspace: Workspace) -> None:
    done = fresh_workspace.run("demo", timeout=180)
    assert done.code == 0, done.out[-2000:] + done.err[-2000:]
    assert f"$ browse goto --allow-file {url()}" in done.out
    assert "$ browse fill @e" in done.out and "$ browse click @e" in done.out
    assert "Clicked @e" in done.out and 'live region: "Welcome aboard' in done.out
    assert 'Team "Rocket Lab" is ready on the Enterprise plan' in done.out
    assert "error:" not in done.err


def test_the_demo_says_what_failed_when_there_is_no_browser(fresh_workspace: Workspace) -> None:
    done = fresh_workspace.run("demo", timeout=120, BROWSE_CHROMIUM_PATH=str(fresh_workspace.root / "none"))
    assert done.code == 3, done.out + done.err
    assert "$ browse goto --allow-file" in done.out
    assert "error:" in done.err and "hint:" in done.err
