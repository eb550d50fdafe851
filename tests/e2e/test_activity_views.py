"""The activity page's sessions list, address bar and Console, Network and Storage views, in a
real Chromium at a desktop, a laptop and a phone width (screenshots kept beside the test's files)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from test_dashboard import dashboard_url, viewer

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["viewer"]

FIRST = """<title>first</title><h1>First page</h1>
<script>console.log("hello from the first page"); localStorage.setItem("cart", "3 apples")</script>"""
SECOND = "<title>second</title><h1>Second page</h1>"


@pytest.fixture
def ws(fresh_workspace: Workspace, tmp_path: Path) -> Iterator[Workspace]:
    fresh_workspace.env.update(HOME=str(tmp_path / "home"), BROWSE_PERSIST="0")
    yield fresh_workspace


def _page(viewer: Browser, width: int) -> Page:
    return viewer.new_context(viewport={"width": width, "height": 800}).new_page()


def test_sessions_the_address_bar_and_the_three_views_work_and_fit_each_width(
    ws: Workspace, site: Site, viewer: Browser, tmp_path: Path
) -> None:
    first, second = site.page("/views/first", FIRST), site.page("/views/second", SECOND)
    ws.ok("goto", first)
    ws.ok("--session", "work", "goto", "about:blank")
    page = _page(viewer, 1280)
    page.goto(dashboard_url(ws))
    sessions = page.locator("#sessionlist")
    expect(sessions.get_by_role("link", name=re.compile(r"^default \(1 tab\)"))).to_contain_text(first)
    expect(sessions.get_by_role("link", name=re.compile(r"^work"))).to_be_visible()
    page.click("nav button[data-pane=live]")
    expect(page.get_by_label("Address")).to_have_value(first)
    page.get_by_label("Address").fill(second)
    page.get_by_label("Address").press("Enter")
    expect(sessions).to_contain_text(second)
    assert strip_fence(ws.ok("js", "location.href")).strip() == second
    page.get_by_role("button", name="Back").click()
    expect(sessions).to_contain_text(first)
    assert strip_fence(ws.ok("js", "location.href")).strip() == first
    for name, shown in (
        ("console", "hello from the first page"),
        ("network", "/views/second"),
        ("storage", "3 apples"),
    ):
        page.click(f"nav button[data-pane={name}]")
        expect(page.locator(f"#{name} pre")).to_contain_text(shown)
    page.click("nav button[data-pane=feed]")
    rows = page.locator("#rows tr", has=page.locator("td.client", has_text="activity page"))
    expect(rows.first).to_be_visible()  # what the page did shows in the feed as the page's
    for width in (1280, 800, 390):
        _fits(_page(viewer, width), dashboard_url(ws), tmp_path / f"activity-{width}.png")


def _fits(page: Page, url: str, shot: Path) -> None:
    """At this width the sidebar, the address bar and the live view show, and nothing runs off the side."""
    page.goto(url)
    expect(page.locator("#conn")).to_have_text("live")
    page.click("nav button[data-pane=live]")
    expect(page.locator("#screen")).to_have_attribute("src", re.compile("^data:image/jpeg;base64,"))
    for part in ("#sessionlist a.on", "#address", "#navback", "#navgo", "#screen"):
        expect(page.locator(part).first).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "runs off the side"
    page.screenshot(path=str(shot), full_page=True)
    if os.environ.get("ACTIVITY_SHOTS"):  # to look at them: ACTIVITY_SHOTS=DIR
        shutil.copy(shot, Path(os.environ["ACTIVITY_SHOTS"]) / shot.name)
    page.context.close()
