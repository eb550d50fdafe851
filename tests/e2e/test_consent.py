"""The consent gate on real pages: a delete button, a form posting to another origin, a download link.

With BROWSE_CONFIRM set, such an action does not run (exit 5, one line with an
id); `confirm ID` runs it as it was, `deny ID` drops it, a moved target is
refused, a held action expires, and a person answers from the activity page
in a real browser (phone-wide). Off by default.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ElicitRequestParams, ElicitResult, TextContent
from playwright.sync_api import Page, expect
from test_dashboard import dashboard_url, page, viewer

from conftest import BROWSE, FixtureHandler, Site, Workspace
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


@pytest.fixture
def gated(fresh_workspace: Workspace, site: Site) -> Iterator[Workspace]:
    hits.clear()
    fresh_workspace.env.update(BROWSE_CONFIRM="destructive,cross-origin,download", BROWSE_PERSIST="0")
    fresh_workspace.ok("goto", _pages(site))
    yield fresh_workspace


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


TOOLS = """<!doctype html><meta charset="utf-8"><title>Tools</title><h1>Tools</h1><script>
const mc = document.modelContext;
mc.registerTool({name: "empty_cart", description: "Empty the cart", annotations: {consequentialHint: true},
  execute: () => { document.querySelector("h1").textContent = "Cart emptied"; return "emptied"; }});
mc.registerTool({name: "count_items", description: "Count the items", annotations: {readOnlyHint: true},
  execute: () => "3 items"});
</script>"""


def test_a_page_tool_its_page_marks_consequential_is_held_as_destructive(
    fresh_workspace: Workspace, site: Site
) -> None:
    fresh_workspace.env.update(BROWSE_CONFIRM="destructive", BROWSE_PERSIST="0")
    fresh_workspace.ok("goto", site.page("/cg/tools", TOOLS))
    assert "3 items" in fresh_workspace.ok("tool", "count_items")  # a plain tool is not held
    held = fresh_workspace.run("tool", "empty_cart")
    assert held.code == 5 and "tool empty_cart (its page marks it consequential) on 127.0.0.1:" in held.err
    assert "Cart emptied" not in fresh_workspace.ok("text", "h1")
    done = fresh_workspace.ok("confirm", _held_id(held.err))
    assert "Called page tool empty_cart" in done and "emptied" in done


def test_an_mcp_client_with_elicitation_asks_its_person_and_one_without_gets_the_id(
    gated: Workspace,
) -> None:
    asked: list[str] = []

    def client(answer: bool, mode: str) -> Client:
        async def elicit(context: object, params: ElicitRequestParams) -> ElicitResult:
            asked.append(params.message)
            return ElicitResult(action="accept", content={"approve": answer})

        server = StdioServerParameters(command=BROWSE, args=["mcp"], cwd=str(gated.root), env=gated.env)
        return Client(server, elicitation_callback=elicit, mode=mode)

    def said(result: CallToolResult) -> str:
        return "\n".join(c.text for c in result.content if isinstance(c, TextContent))

    async def scenario() -> None:
        # "auto" (the SDK default) asks via InputRequiredResult, "legacy" via the 2025-06-18 back-channel
        for mode in ("auto", "legacy"):
            hits.clear()
            async with client(False, mode) as declining:
                result = await declining.call_tool("click", {"sel": "text=Delete account"})
                assert result.is_error and "The person declined: it did not run" in said(result), said(result)
            assert hits == [] and '"Delete account" → POST /cg/delete' in asked.pop(), mode
            async with client(True, mode) as approving:
                result = await approving.call_tool("click", {"sel": "text=Delete account"})
                assert not result.is_error and "Account deleted" in said(result), (mode, said(result))
            assert hits == ["/cg/delete"] and asked.pop(), mode
            gated.ok("back")  # to the form again
        assert "Nothing is held for consent" in gated.ok("confirm")  # no second copy left held behind
        plain_server = StdioServerParameters(command=BROWSE, args=["mcp"], cwd=str(gated.root), env=gated.env)
        async with Client(plain_server) as plain:
            result = await plain.call_tool("click", {"sel": "text=Go"})
            assert (
                result.is_error and "held for consent [" in said(result) and "browse confirm" in said(result)
            )

    with ThreadPoolExecutor(1) as apart:  # the activity test's sync Playwright keeps a loop in this thread
        apart.submit(asyncio.run, scenario()).result()
