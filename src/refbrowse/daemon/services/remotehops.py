"""BROWSE_ALLOWED_HOSTS at every redirect hop and WebSocket of a remote browser.

A browser this daemon launches resolves no host outside the policy (see
`chromium.host_rules`); a remote one resolves every host, and the context route
of `confine` sees only the first request of a redirect chain and no WebSocket.
So, once connected to a remote browser, a browser-wide DevTools session pauses
every request (`Fetch`, which pauses each redirect hop again; browser-wide, so
popups, cross-site frames and workers are paused from their first request) and
fails the ones to another host; and each session's WebSocket route closes
sockets to another host before they reach it; and `workersockets` puts the
same check in the WebSocket of every worker. A Playwright server offers no
DevTools connection of the daemon's own: its pages get the check for their
WebSocketStream and WebTransport as an init script, and the first command
says that its workers' WebSockets are not held. The pausing covers the whole
remote browser while this daemon is connected, other clients' tabs included.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Browser, CDPSession, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.target import BrowserTarget
from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.policy import Policy
from refbrowse.daemon.services.workersockets import WorkerSockets

log = logging.getLogger("refbrowse")

GATED_SCHEMES = ("http", "https", "ws", "wss")
BLOCKED = "BlockedByClient"
EVERY_REQUEST = {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}
UNWATCHED_WORKERS = (
    "BROWSE_ALLOWED_HOSTS does not hold the WebSockets of a Playwright server's workers (it offers no"
    " DevTools connection to watch them): connect by a DevTools URL (BROWSE_CDP_URL, `connect --cdp`)"
    " for that"
)


class RemoteHops:
    """Gates each request hop (DevTools `Fetch`) and WebSocket of a remote browser by host."""

    def __init__(self, policy: Policy, target: Callable[[], BrowserTarget], notices: Notices) -> None:
        self.policy = policy
        self.target = target
        self.notices = notices
        self.workers = WorkerSockets(policy)
        self._gated: weakref.WeakKeyDictionary[Browser, CDPSession] = weakref.WeakKeyDictionary()

    def outside(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in GATED_SCHEMES and not self.policy.host_allowed(parts.hostname or "")

    async def on_new_session(self, session: Session) -> None:
        target = self.target()
        if not (self.policy.allowed_hosts and target.remote):
            return
        browser = session.context.browser
        if browser is not None and browser not in self._gated:
            self._gated[browser] = await self._pause_requests(browser)
            if target.cdp_url:
                await self.workers.watch(browser, target.cdp_url)
            else:
                self.notices.add(UNWATCHED_WORKERS)
        if not target.cdp_url:  # no DevTools connection of our own: the pages get the guard from Playwright
            await session.context.add_init_script(script=self.workers.document_guard())
        await session.context.route_web_socket(self.outside, _refuse_socket)

    async def _pause_requests(self, browser: Browser) -> CDPSession:
        """Every request of the browser, of every tab, popup, frame and worker, each hop paused."""
        cdp = await browser.new_browser_cdp_session()
        cdp.on("Fetch.requestPaused", lambda event: spawn(self._decide(cdp, event)))
        await cdp.send("Fetch.enable", EVERY_REQUEST)
        return cdp

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
