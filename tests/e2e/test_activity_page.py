"""The activity page as a person meets it: after a restart, while the agent moves on, on a phone.

Each test opens the page in a separate viewer Chromium (see test_dashboard.py)
and drives the session with the `browse` CLI.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from test_dashboard import app, dashboard_url, home, open_dashboard, page, viewer, ws

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["app", "home", "page", "viewer", "ws"]  # fixtures shared with test_dashboard.py


@pytest.fixture
def bare(fresh_workspace: Workspace, tmp_path: Path) -> Iterator[Workspace]:
    """A workspace whose user has no browser profiles and no agent command set."""
    (tmp_path / "home").mkdir()
    fresh_workspace.env.update(HOME=str(tmp_path / "home"), BROWSE_PERSIST="0")
    fresh_workspace.env.pop("BROWSE_AGENT_CMD", None)
    yield fresh_workspace


def test_after_a_restart_the_page_says_the_daemon_went_and_how_to_get_a_new_link(
    bare: Workspace, page: Page
) -> None:
    open_dashboard(bare, page)
    bare.ok("restart")
    expect(page.locator("#gone")).to_be_visible()
    expect(page.locator("#gone")).to_contain_text("Run browse dashboard for a new link")
    expect(page.locator("#conn")).to_have_text("daemon stopped")
    page.goto(dashboard_url(bare))
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#gone")).to_be_hidden()


def test_the_cookie_and_chat_panes_say_up_front_what_to_do_when_empty_or_off(
    bare: Workspace, page: Page
) -> None:
    open_dashboard(bare, page)
    page.click("nav button[data-pane=cookies]")
    expect(page.locator("#cookienote")).to_contain_text("No browser profiles with cookies were found")
    expect(page.locator("#cookienote")).to_contain_text("browse cookie-import FILE")
    expect(page.locator("#listdomains")).to_be_disabled()
    for chooser in ("#browser", "#profile", "#domainsearch"):  # nothing to choose: no empty dropdowns
        expect(page.locator(chooser)).to_be_hidden()
    page.click("nav button[data-pane=chat]")
    expect(page.locator("#chatnote")).to_contain_text("Chat is off")
    expect(page.locator("#chatnote")).to_contain_text("BROWSE_AGENT_CMD='claude -p' browse restart")
    expect(page.locator("#send")).to_be_disabled()


def test_with_an_agent_and_a_profile_the_panes_say_what_will_happen(ws: Workspace, page: Page) -> None:
    open_dashboard(ws, page)
    page.click("nav button[data-pane=chat]")
    expect(page.locator("#chatnote")).to_contain_text("Each message runs")
    expect(page.locator("#chatnote")).to_contain_text("agent.py")
    expect(page.locator("#send")).to_be_enabled()
    page.click("nav button[data-pane=cookies]")
    expect(page.locator("#cookienote")).to_contain_text("never cookie values")
    expect(page.locator("#listdomains")).to_be_enabled()
    expect(page.get_by_label("Profile")).to_be_visible()


def test_the_refs_pane_follows_the_agents_navigations(ws: Workspace, app: Site, page: Page) -> None:
    ws.ok("goto", app.url("/d/form"))
    ws.ok("snapshot", "-i")
    open_dashboard(ws, page)
    page.click("nav button[data-pane=refs]")
    refs = page.locator("#reflist li")
    expect(refs.filter(has_text='checkbox "Email me"')).to_have_count(1)
    ws.ok("goto", app.url("/d/login"))
    expect(refs.filter(has_text='textbox "User"')).to_have_count(1)
    expect(refs.filter(has_text='checkbox "Email me"')).to_have_count(0)
    expect(page.locator("#tabs")).to_contain_text(app.url("/d/login"))


def test_a_hovered_refs_outline_clears_when_the_list_changes_or_the_pointer_leaves(
    ws: Workspace, app: Site, page: Page
) -> None:
    ws.ok("goto", app.url("/d/form"))
    ws.ok("snapshot", "-i")
    open_dashboard(ws, page)
    page.click("nav button[data-pane=refs]")
    expect(page.locator("#screen")).to_have_attribute("src", re.compile("^data:image/jpeg"))
    outline = page.locator("#outline")
    page.locator("#reflist li").first.hover()
    expect(outline).to_be_visible()
    page.fill("#refsearch", "nothing matches this")  # the hovered item goes away under the pointer
    expect(outline).to_be_hidden()
    page.fill("#refsearch", "")
    page.locator("#reflist li").first.hover()
    expect(outline).to_be_visible()
    page.mouse.move(1, 1)
    expect(outline).to_be_hidden()


@pytest.mark.parametrize("width", [360, 390, 420])
def test_a_phone_wide_feed_keeps_time_duration_and_outcome_in_view(
    ws: Workspace, app: Site, viewer: Browser, width: int
) -> None:
    context = viewer.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        open_dashboard(ws, page)
        ws.ok("goto", app.url("/d/form?with=a-rather-long-query-string-that-does-not-break-by-itself"))
        assert ws.run("click", "#no-such-button-on-this-page", "--timeout", "500").code == 1
        row = page.locator("#rows tr.fail").first
        expect(row).to_be_visible()
        for cell in ("time", "command", "ms", "outcome"):
            box = row.locator(f"td.{cell}").bounding_box()
            assert box is not None and box["width"] > 10, cell
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (
                f"{cell} is cut off at {width} px: {box}"
            )
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    finally:
        context.close()
