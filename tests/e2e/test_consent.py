"""The consent gate on real pages: a delete button, a form posting to another origin, a download link.

With BROWSE_CONFIRM set, such an action does not run (exit 5, one line with an
id); `confirm ID` runs it as it was, `deny ID` drops it, a moved target is
refused, a held action expires, and a person answers from the activity page
in a real browser (phone-wide). Off by default.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from test_dashboard import dashboard_url, page, viewer

from conftest import FixtureHandler, Site, Workspace
from refbrowse.exitcodes import ExitCode

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["page", "viewer"]  # fixtures shared with test_dashboard.py

hits: list[str] = []


def _hit(h: FixtureHandler) -> None:
    hits.append(h.path)
    h.rfile.read(int(h.headers.get("Content-Length") or 0))
    h.reply("<p role=status>Account deleted</p>")


def _pages(site: Site) -> str:
    port = site.url().split(":")[2].rstrip("/")
    site.route("/cg/delete", _hit)
    site.route("/cg/file.txt", lambda h: h.reply("data", headers={"Content-Disposition": "attachment"}))
    return site.page(
        "/cg/account",
        "<h1>Account</h1><form method=post action=/cg/delete><button>Delete account</button></form>"
        f"<form method=post action=http://localhost:{port}/cg/delete><button>Go</button></form>"
        "<a href=/cg/file.txt download>Export</a> <button id=safe>Show more</button>",
    )


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """One daemon under the consent policy for the module's `gated` tests."""
    ws = Workspace(tmp_path_factory.mktemp("ws"))
    ws.env.update(BROWSE_CONFIRM="destructive,cross-origin,download", BROWSE_PERSIST="0")
    yield ws
    ws.stop()


@pytest.fixture
def gated(gate: Workspace, site: Site) -> Iterator[Workspace]:
    """The policy's daemon on the account page, with nothing held from an earlier test."""
    for held in json.loads(gate.ok("confirm", "--json"))["data"]["held"]:
        gate.ok("deny", held["id"])
    hits.clear()
    gate.ok("goto", _pages(site))
    yield gate


def _held_id(err: str) -> str:
    found = re.search(r"held for consent \[([0-9a-f]{6})\]", err)
    assert found, err
    return found.group(1)


def test_without_a_policy_nothing_is_held(fresh_workspace: Workspace, site: Site) -> None:
    hits.clear()
    fresh_workspace.ok("goto", _pages(site))
    assert "Account deleted" in fresh_workspace.ok("click", "text=Delete account")
    assert hits == ["/cg/delete"]


def test_a_delete_button_is_held_then_confirmed_as_it_was(gated: Workspace, site: Site) -> None:
    assert "Show more" not in gated.run("click", "#safe").err  # not consequential: runs
    held = gated.run("click", "text=Delete account")
    assert held.code == ExitCode.CONFIRM == 5
    first = held.err.splitlines()[0]
    assert f'click text=Delete account "Delete account" → POST /cg/delete on {site.url()[7:-1]}' in first, (
        first
    )
    assert "(destructive)" in first and "browse confirm" in held.err
    assert hits == []  # it did not run
    held_id = _held_id(held.err)
    listed = json.loads(gated.ok("confirm", "--json"))["data"]["held"]
    assert [h["id"] for h in listed] == [held_id]
    done = gated.ok("confirm", held_id)
    assert f"Confirmed [{held_id}]" in done and "Account deleted" in done
    assert hits == ["/cg/delete"]
    again = gated.run("confirm", held_id)
    assert again.code == ExitCode.USAGE and "no action is held" in again.err


def test_a_denied_action_never_runs_and_a_moved_target_is_refused(gated: Workspace) -> None:
    denied = _held_id(gated.run("click", "text=Delete account").err)
    assert "it did not run" in gated.ok("deny", denied)
    assert gated.run("confirm", denied).code == ExitCode.USAGE
    moved = _held_id(gated.run("click", "form button >> nth=0").err)
    gated.ok("js", "document.querySelector('form button').textContent = 'Delete everything'")
    refused = gated.run("confirm", moved)
    assert refused.code == ExitCode.PAGE_ERROR and "the page changed since" in refused.err, refused.err
    assert hits == []


def test_a_cross_origin_post_a_download_and_a_chain_step_are_held(gated: Workspace) -> None:
    cross = gated.run("click", "text=Go")
    assert cross.code == 5 and "on localhost:" in cross.err and "cross-origin)" in cross.err
    download = gated.run("click", "text=Export")
    assert download.code == 5 and "(download)" in download.err
    chain = gated.run("chain", input=json.dumps([["click", "#safe"], ["click", "text=Delete account"]]))
    assert chain.code == 5 and "step 2 of 2" in chain.err and "held for consent" in chain.err
    assert hits == []


def test_a_held_action_expires(fresh_workspace: Workspace, site: Site) -> None:
    hits.clear()
    fresh_workspace.env.update(BROWSE_CONFIRM="destructive", BROWSE_CONFIRM_TTL="1", BROWSE_PERSIST="0")
    fresh_workspace.ok("goto", _pages(site))
    held_id = _held_id(fresh_workspace.run("click", "text=Delete account").err)
    time.sleep(1.5)
    late = fresh_workspace.run("confirm", held_id)
    assert late.code == ExitCode.USAGE and "expired" in late.err
    assert hits == []


def test_a_person_approves_from_the_activity_page_on_a_phone(gated: Workspace, page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(dashboard_url(gated))
    held_id = _held_id(gated.run("click", "text=Delete account").err)
    denied_id = _held_id(gated.run("click", "text=Go").err)
    row = page.locator(f"#held li[data-id='{held_id}']")
    expect(row).to_contain_text('"Delete account" → POST /cg/delete')
    box = row.locator("button.approve").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390  # reachable without scrolling sideways
    row.locator("button.approve").click()
    approved = page.locator(f"#held li[data-answered='{held_id}']")
    expect(approved).to_contain_text("Approved: Clicked text=Delete account")  # the command's own first line
    page.locator(f"#held li[data-id='{denied_id}'] button.deny").click()
    expect(page.locator(f"#held li[data-answered='{denied_id}']")).to_contain_text("Denied")
    expect(page.locator("#held li.held")).to_have_count(0)  # nothing left to answer
    assert hits == ["/cg/delete"]
    notes = gated.run("url").err
    assert f"approved on the activity page: [{held_id}]" in notes, notes
    assert f"denied on the activity page: [{denied_id}]" in notes
