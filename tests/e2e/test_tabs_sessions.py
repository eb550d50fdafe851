"""Tabs within a session, and sessions isolated from each other in one daemon."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _cookie_echo(site: Site) -> str:
    def reply(handler: object) -> None:
        cookie = handler.headers.get("Cookie") or "(none)"  # type: ignore[attr-defined]
        handler.reply(f"<p>cookie: {cookie}</p>")  # type: ignore[attr-defined]

    return site.route("/echo-cookie", reply)


def test_tabs_open_switch_and_close(workspace: Workspace, site: Site) -> None:
    first, second = site.url("/read/article.html"), site.url("/read/other.html")
    workspace.ok("goto", first)
    opened = workspace.ok("newtab", second)
    assert opened.startswith(f"Opened tab 2: {second}\n<<<untrusted") and 'title: "Other"' in opened
    listing = strip_fence(workspace.ok("tabs")).splitlines()
    assert listing == [f"  1  Field notes  {first}", f"* 2  Other  {second}"]
    assert workspace.ok("tab", "1").splitlines()[0] == f"Switched to tab 1: {first}"
    assert workspace.ok("url").strip() == first
    assert workspace.ok("closetab", "2").strip() == f"Closed tab 2; current tab 1: {first}"
    assert len(strip_fence(workspace.ok("tabs")).splitlines()) == 1


def test_a_bad_tab_number_is_a_usage_error(workspace: Workspace) -> None:
    result = workspace.run("tab", "7")
    assert result.code == 2 and "no tab 7" in result.err and "browse tabs" in result.err


def test_a_link_opening_a_new_tab_becomes_a_tab(workspace: Workspace, site: Site) -> None:
    count_before = len(strip_fence(workspace.ok("tabs")).splitlines())
    page = site.page("/opener", "<script>window.open('/read/article.html')</script><p>opener</p>")
    workspace.ok("goto", page)
    tabs = strip_fence(workspace.ok("tabs")).splitlines()
    assert len(tabs) == count_before + 1 and tabs[-1].endswith("/read/article.html")
    workspace.ok("closetab", str(len(tabs)))


def test_sessions_have_their_own_tabs_and_cookies(workspace: Workspace, site: Site) -> None:
    setter = site.route(
        "/set-cookie",
        lambda h: h.reply("<p>set</p>", headers={"Set-Cookie": "who=alice; Path=/"}),  # type: ignore[attr-defined]
    )
    echo = _cookie_echo(site)
    workspace.ok("--session", "alice", "goto", setter)
    workspace.ok("--session", "alice", "goto", echo)
    workspace.ok("--session", "bob", "goto", echo)
    assert "cookie: who=alice" in workspace.ok("--session", "alice", "text")
    assert "cookie: (none)" in workspace.ok("--session", "bob", "text")
    assert workspace.ok("url", BROWSE_SESSION="bob").strip() == echo
    status = workspace.ok("status", BROWSE_SESSION="alice")
    assert "session: alice" in status and "alice, bob" in status
