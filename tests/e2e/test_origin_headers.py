"""Extra headers set for one origin stay with that origin at every redirect hop.

The site on 127.0.0.1 (origin A) answers `/hop?to=URL` with a redirect; the
other host on 127.0.0.2 (B) logs every request. A's headers must reach A (its
redirects to itself too) and never B: not for an image, a fetch, a page's
`location`, nor the agent's own `goto`.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from conftest import FixtureHandler, Site, Workspace
from otherhost import OtherHost, other_host

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SECRET = "Bearer origin-only-s3cret"
KEY = "key-origin-only"


@pytest.fixture
def b_host() -> Iterator[OtherHost]:
    with other_host() as host:
        yield host


def _hop(h: FixtureHandler) -> None:
    hops.append(h.headers.get("Authorization", ""))
    h.redirect(parse_qs(urlsplit(h.path).query)["to"][0])


hops: list[str] = []  # the Authorization that A's redirecting address and landing page got, one per request


def _pages(site: Site, b: OtherHost) -> tuple[str, str]:
    site.route("/oh/hop", _hop)
    site.route("/oh/landing", lambda h: (hops.append(h.headers.get("Authorization", "")), h.reply("landed")))

    def hop(to: str) -> str:
        return "/oh/hop?to=" + quote(to, safe="")

    page = site.page(
        "/oh/page",
        f"<title>A</title><img src='{hop(b.url('/img'))}'>"
        f"<script>fetch('{hop(b.url('/fetch'))}', {{mode: 'no-cors'}}).catch(() => {{}});"
        f"setTimeout(() => {{ location.href = '{hop(b.url('/location'))}' }}, 300)</script>",
    )
    return page, site.url(hop(site.url("/oh/landing")))


def _wait_for(b: OtherHost, count: int, ws: Workspace) -> None:
    for _ in range(40):
        if len(b.requests) >= count:
            return
        ws.run("wait", "250")


@pytest.mark.parametrize("every", [False, True], ids=["alone", "beside-a-header-for-every-origin"])
def test_headers_for_one_origin_never_follow_its_redirects_to_another_host(
    fresh_workspace: Workspace, site: Site, b_host: OtherHost, every: bool
) -> None:
    ws = fresh_workspace
    hops.clear()
    page, same_origin = _pages(site, b_host)
    ws.run("headers", "set", "Authorization", "-", "--origin", site.origin, input=SECRET + "\n")
    ws.ok("headers", "set", "X-Api-Key", KEY, "--origin", site.origin)
    if every:
        ws.ok("headers", "set", "X-Every", "everywhere")
    ws.ok("goto", page)
    _wait_for(b_host, 3, ws)
    ws.run("goto", site.url("/oh/hop?to=" + quote(b_host.url("/goto"), safe="")))
    ws.ok("goto", same_origin)
    reached = [(path, headers) for path, headers in b_host.requests if path != "/favicon.ico"]
    assert sorted(path for path, _ in reached) == ["/fetch", "/goto", "/img", "/location"]
    for path, headers in reached:
        assert "authorization" not in headers and "x-api-key" not in headers, (path, headers)
    assert "landed" in ws.ok("text")
    assert len(hops) == 6 and all(sent == SECRET for sent in hops), hops  # A got them at every hop to A
    ws.ok("headers", "clear")
    ws.ok("goto", same_origin)
    assert hops[6:] == ["", ""], hops  # cleared: A's hops get none
