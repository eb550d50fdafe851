"""A remote browser whose workers cannot be guarded is not browsed under BROWSE_ALLOWED_HOSTS, and says why.

The daemon's own DevTools connection to the remote browser (beside
Playwright's) is what guards its workers' WebSockets. A proxy in front of the
remote browser's DevTools endpoint lets Playwright through and fails the
daemon's connection: silent, garbage, closed, a 60 MB answer, or dropped in
the middle of the session. Each time `connect` (or the next command) fails
with the reason, `status` says it, and the workers' sockets reach nothing
outside the policy (a WebSocket server on 127.0.0.2 logs what arrives).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_remote import RemoteChromium
from test_remote_workers import SocketServer, sockets, worker_pages  # noqa: F401 - fixture

from conftest import Site, Workspace
from devtoolsproxy import DevtoolsProxy

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

NOT_GUARDED = "workers are not guarded"


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RemoteChromium]:
    remote = RemoteChromium(Path(tmp_path_factory.mktemp("guard")) / "profile")
    remote.start()
    yield remote
    remote.kill()


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """One daemon under a host policy for the module: each test connects through a proxy of its own
    and disconnects, so each starts headless and guarded again (checked at its end).

    A silent link is waited out for `BROWSE_CDP_TIMEOUT`: 3 s, not the default 10 s, and still
    far above what a real browser here takes to answer."""
    ws = Workspace(tmp_path_factory.mktemp("ws"))
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    ws.env["BROWSE_CDP_TIMEOUT"] = "3000"
    yield ws
    ws.stop()


def _proxied(chromium: RemoteChromium, mode: str) -> Iterator[DevtoolsProxy]:
    proxy = DevtoolsProxy(chromium.port, mode)
    yield proxy
    proxy.close()


@pytest.mark.parametrize("mode", ["silent", "garbage", "closed", "huge"])
def test_connect_fails_and_nothing_browses_when_the_daemons_own_link_fails(
    guarded: Workspace,
    site: Site,
    chromium: RemoteChromium,
    sockets: tuple[SocketServer, SocketServer],  # noqa: F811
    mode: str,
) -> None:
    ws = guarded
    outside, inside = sockets
    url = worker_pages(site, outside, inside)
    ws.ok("goto", "about:blank")
    for proxy in _proxied(chromium, mode):
        said = ws.run("connect", "--cdp", proxy.url)
        assert said.code != 0 and "cannot be guarded" in said.err, said
        assert NOT_GUARDED in ws.ok("status")
        refused = ws.run("goto", url)
        assert refused.code != 0 and "refusing to browse" in refused.err, refused
        assert outside.paths == [], outside.paths
        assert "Now headless" in ws.ok("disconnect")
        assert NOT_GUARDED not in ws.ok("status")


def test_a_link_that_drops_mid_session_stops_the_browsing(
    guarded: Workspace,
    site: Site,
    chromium: RemoteChromium,
    sockets: tuple[SocketServer, SocketServer],  # noqa: F811
) -> None:
    ws = guarded
    outside, inside = sockets
    url = worker_pages(site, outside, inside)
    ws.ok("goto", "about:blank")
    for proxy in _proxied(chromium, "drop"):
        assert "Now remote (cdp" in ws.ok("connect", "--cdp", proxy.url)
        ws.ok("goto", site.url("/"))
        proxy.drop()
        for _ in range(40):
            if NOT_GUARDED in ws.ok("status"):
                break
            time.sleep(0.25)
        assert NOT_GUARDED in ws.ok("status")
        refused = ws.run("goto", url)
        assert refused.code != 0 and "refusing to browse" in refused.err, refused
        assert outside.paths == [] and inside.paths == []
        ws.ok("disconnect")
