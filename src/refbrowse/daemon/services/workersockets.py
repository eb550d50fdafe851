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

The guard fails closed: when that connection cannot be made, is silent, sends
what is not DevTools, or ends while the browser is still in use, `down` says
why, and `remotehops` refuses every request and every command that browses
until a `connect` watches the browser again.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any

import aiohttp
from playwright.async_api import Browser

from refbrowse.daemon.core.devtools.rawcdp import CdpError, CdpLost, RawCdp, answer_s
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

    def __init__(self, policy: Policy, on_down: Callable[[str], None] = lambda why: None) -> None:
        self.policy = policy
        self.down = ""  # why the guard is not known to work, for the browser watched last
        self._on_down = on_down
        self._links: weakref.WeakKeyDictionary[Browser, RawCdp] = weakref.WeakKeyDictionary()

    def document_guard(self) -> str:
        """The check for a page's WebSocketStream and WebTransport, as a script to run in each document."""
        return called("worker_sockets", self.policy.host_regexes(), DOCUMENT_SOCKETS)

    async def watch(self, browser: Browser, endpoint: str) -> None:
        """Watch every target of `browser` (at the DevTools `endpoint`) from now on, or say why not."""
        link = self._links.get(browser)
        if link is not None and not link.closed:
            return
        self.down = ""
        try:
            link = await asyncio.wait_for(RawCdp.connect(endpoint), 2 * answer_s())
        except (aiohttp.ClientError, OSError, KeyError, ValueError, TypeError, TimeoutError) as exc:
            self._fail(
                f"its DevTools endpoint did not give the daemon a connection of its own ({_said(exc)})"
            )
            return
        self._links[browser] = link
        browser.on("disconnected", lambda _: spawn(self._forget(browser, link)))
        link.on("Target.attachedToTarget", lambda _, event: spawn(self._arm(link, event)))
        link.on_end(lambda why: self._fail(f"the daemon's DevTools connection to it ended ({why})"))
        try:
            await link.send("Target.setAutoAttach", PAUSED_AT_START)
        except CdpError as exc:
            self._fail(f"its DevTools connection did not start watching its targets ({_said(exc)})")
            await link.close()

    def _fail(self, why: str) -> None:
        if not self.down:
            log.warning("the remote browser's workers are not guarded: %s", why)
            self.down = why
            self._on_down(why)

    async def _forget(self, browser: Browser, link: RawCdp) -> None:
        """The browser went (a switch, or it closed): its connection ends without putting the guard down."""
        self._links.pop(browser, None)
        await link.close()

    async def _arm(self, link: RawCdp, event: dict[str, Any]) -> None:
        """Guard the target's sockets and watch its children, then let it run."""
        session, kind = event["sessionId"], event["targetInfo"]["type"]
        try:
            await self._guard(link, session, kind)
            await link.send("Target.setAutoAttach", PAUSED_AT_START, session)
        except CdpLost as exc:  # one target silent (one attached twice), or the whole connection?
            if not await self._alive(link, kind, exc):
                return  # the target stays paused, unguarded and never run
        except CdpError as exc:  # the target went away meanwhile
            log.debug("a %s target ended before it was watched: %s", kind, exc)
        if event.get("waitingForDebugger"):
            await _quietly_run(link, session)

    async def _alive(self, link: RawCdp, kind: str, exc: CdpError) -> bool:
        """Whether the connection still answers after a target did not; if not, the guard is down."""
        try:
            if not link.closed:
                await link.send("Browser.getVersion")
                log.debug("a %s target did not answer: %s", kind, exc)
                return True
        except CdpLost:
            pass
        self._fail(f"its DevTools connection stopped answering (guarding a {kind}: {_said(exc)})")
        return False

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


def _said(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


async def _quietly_run(link: RawCdp, session: str) -> None:
    try:
        await link.send("Runtime.runIfWaitingForDebugger", None, session)
    except CdpError as exc:
        log.debug("a paused target ended before it ran: %s", exc)
