"""What a `route` rule acts on: a URL's path (not an address in its query), no request the policy refuses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import Site, Workspace
from otherhost import OtherHost, other_host

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture
def b_host() -> Iterator[OtherHost]:
    with other_host() as host:
        yield host


def test_a_glob_names_the_urls_path_not_an_address_in_its_query(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    site.page("/rm/search", "<title>search</title><p id=real>the real search page</p>")
    site.page("/rm/api/items", "from the server")
    ws.ok("route", "**/api/items", "--body", "mocked items")
    report = ws.ok("goto", site.url("/rm/search?next=/api/items"))
    assert "by route" not in report, report
    assert "the real search page" in ws.ok("text")
    got = ws.ok("--raw", "js", "await fetch('/rm/api/items?page=2').then(r => r.text())")
    assert "from the server" in got, got  # the glob names no query, as Playwright reads it
    got = ws.ok("--raw", "js", "await fetch('/rm/api/items').then(r => r.text())")
    assert "mocked items" in got, got


def test_a_delay_is_not_reported_for_a_request_the_host_policy_refuses(
    fresh_workspace: Workspace, site: Site, b_host: OtherHost
) -> None:
    ws = fresh_workspace
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1"
    outside = b_host.url("/refused.png")
    page = site.page("/rm/delayed", f"<title>delayed</title><img src='{outside}'><img src='/rm/inside.png'>")
    ws.ok("route", "**/*.png", "--delay", "100")
    report = ws.ok("goto", page)
    assert "request GET /rm/inside.png delayed 100 ms by route **/*.png" in report, report
    assert "refused.png" not in report, report
    assert b_host.requests == []
