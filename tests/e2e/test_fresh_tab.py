"""A navigation away from a tab the daemon has just opened, blank and untouched, does not look at
that blank page first (there is nothing on it to compare or to wait for), and reports as any other.

End to end through `browse`, with `BROWSE_TRACE=1` so that the daemon's log says whether the
action looked at the page before it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

LOOK_BEFORE = "trace: look before "
PAGE = "<!doctype html><title>Fresh</title><h1>Fresh</h1><button>Press</button><a href='/x'>Away</a>"


@pytest.fixture()
def traced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    ws = Workspace(tmp_path_factory.mktemp("ws"))
    ws.env["BROWSE_TRACE"] = "1"
    yield ws
    ws.stop()


def looks_before(ws: Workspace) -> int:
    return (ws.state_dir / "daemon.log").read_text().count(LOOK_BEFORE)


def test_the_first_goto_skips_the_look_at_the_blank_tab_and_the_next_one_takes_it(
    traced: Workspace, site: Site
) -> None:
    url = site.page("/fresh/first.html", PAGE)
    first = traced.ok("goto", url)
    assert looks_before(traced) == 0
    assert f"Navigated to {url} (200)" in first
    assert 'button "Press"' in first and 'link "Away"' in first
    again = traced.ok("goto", url)
    assert looks_before(traced) == 1
    assert first.splitlines()[0] == again.splitlines()[0]


def test_a_new_tab_opened_with_a_url_skips_the_look_at_its_blank_page(traced: Workspace, site: Site) -> None:
    traced.ok("goto", site.page("/fresh/home.html", "<title>Home</title><p>home</p>"))
    seen = looks_before(traced)
    opened = traced.ok("newtab", site.page("/fresh/second.html", PAGE))
    assert looks_before(traced) == seen
    assert "Opened tab 2: " in opened and 'button "Press"' in opened


def test_a_blank_tab_a_command_already_ran_in_is_looked_at_before_it_is_left(
    traced: Workspace, site: Site
) -> None:
    traced.ok("js", "document.title = 'touched'")
    traced.ok("goto", site.page("/fresh/after-js.html", PAGE))
    assert looks_before(traced) == 1
