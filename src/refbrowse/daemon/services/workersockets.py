"""BROWSE_ALLOWED_HOSTS for the WebSockets that a remote browser's workers open.

The WebSocket route of `remotehops` is a script Playwright puts in pages and
frames, and DevTools `Fetch` does not see WebSocket handshakes, so a worker
(dedicated, shared or service) would reach any host. So a DevTools connection
of the daemon's own (`rawcdp`) auto-attaches to every target of the remote
browser with each new one paused at its start, and before letting a worker run
puts `worker_sockets.js` in it: its WebSocket, WebSocketStream and WebTransport
refuse a URL whose host the policy refuses. Pages and frames get the same
script for WebSocketStream and WebTransport, which the route does not see.
Every attached target auto-attaches its own children the same way (a nested
worker, a frame in another process, a page's workers), so no worker starts
unseen. Only a browser reached by a DevTools URL (`connect --cdp`,
`BROWSE_CDP_URL`) can be watched so; a Playwright server (`BROWSE_WS_ENDPOINT`)
offers no such connection.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

import aiohttp
from playwright.async_api import Browser

from refbrowse.daemon.core.devtools.rawcdp import CdpError, RawCdp
from refbrowse.daemon.core.devtools.scripts import called
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.services.policy import Policy

log = logging.getLogger("refbrowse")

WORKERS = ("worker", "shared_worker", "service_worker")
DOCUMENTS = ("page", "iframe")
WORKER_SOCKETS = ["WebSocket", "WebSocketStream", "WebTransport"]
# A page's WebSocket is refused by the daemon's WebSocket route, which closes it as a server would.
DOCUMENT_SOCKETS = ["WebSocketStream", "WebTransport"]
PAUSED_AT_START = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True}


class WorkerSockets:
    """Puts the host check in every worker of a remote browser before the worker's script runs."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._links: weakref.WeakKeyDictionary[Browser, RawCdp] = weakref.WeakKeyDictionary()

    def document_guard(self) -> str:
        """The check for a page's WebSocketStream and WebTransport, as a script to run in each document."""
        return called("worker_sockets", self.policy.host_regexes(), DOCUMENT_SOCKETS)

    async def watch(self, browser: Browser, endpoint: str) -> None:
        """Watch every target of `browser` (reached at the DevTools `endpoint`) from now on."""
        if browser in self._links:
            return
        try:
            link = await RawCdp.connect(endpoint)
        except (aiohttp.ClientError, OSError, KeyError, ValueError, TimeoutError) as exc:
            log.warning("cannot watch the remote browser's workers: %s", exc)
            return
        self._links[browser] = link
        browser.on("disconnected", lambda _: spawn(link.close()))
        link.on("Target.attachedToTarget", lambda _, event: spawn(self._arm(link, event)))
        try:
            await link.send("Target.setAutoAttach", PAUSED_AT_START)
        except CdpError as exc:
            log.warning("cannot watch the remote browser's workers: %s", exc)

    async def _arm(self, link: RawCdp, event: dict[str, Any]) -> None:
        """Guard the target's sockets and watch its children, then let it run."""
        session, kind = event["sessionId"], event["targetInfo"]["type"]
        try:
            await self._guard(link, session, kind)
            await link.send("Target.setAutoAttach", PAUSED_AT_START, session)
        except CdpError as exc:  # the target went away meanwhile
            log.debug("a %s target ended before it was watched: %s", kind, exc)
        finally:
            if event.get("waitingForDebugger"):
                await _quietly_run(link, session)

    async def _guard(self, link: RawCdp, session: str, kind: str) -> None:
        hosts = self.policy.host_regexes()
        if kind in WORKERS:
            guard = called("worker_sockets", hosts, WORKER_SOCKETS)
            ran = await link.send("Runtime.evaluate", {"expression": guard}, session)
            if "exceptionDetails" in ran:
                log.warning("could not guard a %s's sockets: %s", kind, ran["exceptionDetails"].get("text"))
        elif kind in DOCUMENTS:
            script = {"source": self.document_guard(), "runImmediately": True}
            await link.send("Page.enable", None, session)  # its new-document scripts run only when on
            await link.send("Page.addScriptToEvaluateOnNewDocument", script, session)


async def _quietly_run(link: RawCdp, session: str) -> None:
    try:
        await link.send("Runtime.runIfWaitingForDebugger", None, session)
    except CdpError as exc:
        log.debug("a paused target ended before it ran: %s", exc)
