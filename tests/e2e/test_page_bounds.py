"""What a page hands back is bounded before it crosses Playwright's driver.

A 280 MB `document.title` read by `tabs`, or a 300 MB string returned by `js`,
used to stall the tab for 20 s and then reset it, or kill the driver and with it
every session. Each read is cut in the page and says how long the whole was.
"""

from __future__ import annotations

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture
def plain(site: Site) -> str:
    return site.page("/bounds/plain", "<h1>plain</h1>")


def test_tabs_shows_a_cut_title_of_a_100_mb_title(workspace: Workspace, plain: str) -> None:
    workspace.ok("goto", plain)
    workspace.ok("js", "document.title = 'T'.repeat(100e6); 1", timeout=120)
    pid = workspace.daemon_info()["pid"]
    listed = strip_fence(workspace.ok("tabs", timeout=120))
    assert "T" * 300 + "…" in listed and "T" * 302 not in listed
    assert plain in listed
    assert workspace.daemon_info()["pid"] == pid


def test_js_returning_300_mb_prints_the_first_million_characters(workspace: Workspace, plain: str) -> None:
    workspace.ok("goto", plain)
    pid = workspace.daemon_info()["pid"]
    result = workspace.run("js", "'x'.repeat(300e6)", timeout=120)
    assert result.code == 0, result.err
    assert len(result.out) < 1_100_000
    assert "the value is 300,000,000 characters long; the first 1,000,000 are shown" in result.out
    assert workspace.ok("url").strip() == plain
    assert workspace.daemon_info()["pid"] == pid


def test_a_megabyte_console_message_is_kept_cut(workspace: Workspace, plain: str) -> None:
    workspace.ok("goto", plain)
    workspace.ok("js", "console.log('y'.repeat(1e6))")
    logged = workspace.ok("console")
    line = next(line for line in logged.splitlines() if "yyyy" in line)
    assert len(line) < 2_200 and "more characters left out" in line
