"""BROWSE_ALLOWED_HOSTS at every redirect hop and WebSocket of a remote browser.

A browser this daemon launches resolves no host outside the policy (see
`chromium.host_rules`); a remote one resolves every host, and the context route
of `confine` sees only the first request of a redirect chain and no WebSocket.
So, for a remote browser, each page's DevTools session pauses every request
(`Fetch`, which pauses each redirect hop again) and fails the ones to another
host, and a context WebSocket route closes sockets to another host before
they reach it. The context route waits until a page's pausing is on before
letting its first request go, so no hop of it slips through.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import CDPSession, Page, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.cdp import CdpKeeper
from refbrowse.daemon.core.session import Session
from refbrowse.daemon.core.tab import Tab
from refbrowse.daemon.services.policy import Policy

log = logging.getLogger("refbrowse")

GATED_SCHEMES = ("http", "https", "ws", "wss")
BLOCKED = "BlockedByClient"
EVERY_REQUEST = {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}


class RemoteHops:
    """Gates each request hop (DevTools `Fetch`) and WebSocket of a remote browser's pages by host."""

    def __init__(self, policy: Policy, cdp: CdpKeeper, remote: Callable[[], bool]) -> None:
        self.policy = policy
        self.cdp = cdp
        self.remote = remote
        self._pausing: weakref.WeakKeyDictionary[Page, asyncio.Task[None]] = weakref.WeakKeyDictionary()

    def _applies(self) -> bool:
        return bool(self.policy.allowed_hosts) and self.remote()

    def outside(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in GATED_SCHEMES and not self.policy.host_allowed(parts.hostname or "")

    async def on_new_session(self, session: Session) -> None:
        if self._applies():
            await session.context.route_web_socket(self.outside, _refuse_socket)
            await session.context.route("**/*", self._once_pausing)

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        if self._applies():
            self._pausing[tab.page] = asyncio.ensure_future(self._pause_requests(tab.page))

    async def _once_pausing(self, route: Route) -> None:
        """Lets a page's request go on only once its hops are gated too."""
        try:
            pausing = self._pausing.get(route.request.frame.page)
        except PlaywrightError:  # a service worker's request has no frame
            pausing = None
        if pausing is not None:
            await asyncio.wait([pausing])
        await route.fallback()

    async def _pause_requests(self, page: Page) -> None:
        try:
            cdp = await self.cdp.session(page)
            cdp.on("Fetch.requestPaused", lambda event: asyncio.ensure_future(self._decide(cdp, event)))
            await cdp.send("Fetch.enable", EVERY_REQUEST)
        except PlaywrightError as exc:
            log.info("could not gate the requests of %s: %s", page.url, exc)

    async def _decide(self, cdp: CDPSession, event: dict[str, Any]) -> None:
        url, request_id = event["request"]["url"], event["requestId"]
        try:
            if self.outside(url):
                log.info("blocked a request outside BROWSE_ALLOWED_HOSTS: %s", url)
                await cdp.send("Fetch.failRequest", {"requestId": request_id, "errorReason": BLOCKED})
            else:
                await cdp.send("Fetch.continueRequest", {"requestId": request_id})
        except PlaywrightError as exc:  # the page closed, or the request was cancelled meanwhile
            log.debug("a paused request ended before it was decided: %s", exc)


async def _refuse_socket(socket: WebSocketRoute) -> None:
    log.info("refused a WebSocket outside BROWSE_ALLOWED_HOSTS: %s", socket.url)
    await socket.close(code=1008, reason="outside BROWSE_ALLOWED_HOSTS")
