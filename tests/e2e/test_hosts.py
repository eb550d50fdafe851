"""BROWSE_ALLOWED_HOSTS holds at every hop: a redirect (of a `goto`, an image, a
clicked link) and a WebSocket never reach a host outside it."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import FixtureHandler, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """One daemon under the policy for both tests (each also names it on every command)."""
    ws = Workspace(tmp_path_factory.mktemp("hosts"))
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1"
    yield ws
    ws.stop()


def _redirect(h: FixtureHandler) -> None:
    h.redirect(parse_qs(urlsplit(h.path).query)["to"][0])


def test_redirects_and_websockets_never_reach_a_host_outside_the_policy(
    guarded: Workspace, site: Site
) -> None:
    hits: list[str] = []
    site.route("/outside", lambda h: (hits.append(h.path), h.reply("outside")))
    site.route("/redir", _redirect)
    outside = f"http://localhost:{site.server.server_address[1]}/outside"
    ws = outside.replace("http:", "ws:")
    html = (
        f"<img src='/redir?to={outside}?img'><a id=go href='/redir?to={outside}?link'>go</a>"
        f"<script>try {{ new WebSocket('{ws}?ws') }} catch (e) {{}}</script>"
    )
    url = site.page("/hosts-hops", html)
    env = {"BROWSE_ALLOWED_HOSTS": "127.0.0.1"}
    guarded.ok("goto", url, **env)
    guarded.run("click", "#go", **env)
    moved = guarded.run("goto", site.url(f"/redir?to={outside}?goto"), **env)
    assert moved.code != 0, moved.out
    guarded.ok("goto", url, **env)
    assert hits == []
    assert "outside" not in guarded.ok("url", **env)


def test_a_remote_browser_outside_the_host_policy_is_refused(guarded: Workspace) -> None:
    env = {"BROWSE_ALLOWED_HOSTS": "127.0.0.1"}
    guarded.ok("goto", "about:blank", **env)
    refused = guarded.run("connect", "--cdp", "http://localhost:9222", **env)
    assert refused.code == 2 and "not in BROWSE_ALLOWED_HOSTS" in refused.err, refused.err
    assert "headless" in guarded.ok("status", **env)
