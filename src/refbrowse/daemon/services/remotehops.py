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

When the worker guard is not known to work (`WorkerSockets.down`), the gate
fails every request, the tabs go to about:blank, and every command that
browses is refused with the reason, which `status` shows too, until `connect`
watches the browser again or `disconnect` leaves it.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, CDPSession, Page, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.target import BrowserTarget
from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.policy import Policy
from refbrowse.daemon.services.workersockets import WorkerSockets
from refbrowse.errors import BrowseError, Unavailable
from refbrowse.registry import COMMANDS

log = logging.getLogger("refbrowse")

GATED_SCHEMES = ("http", "https", "ws", "wss")
BLOCKED = "BlockedByClient"
EVERY_REQUEST = {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}
UNWATCHED_WORKERS = (
    "BROWSE_ALLOWED_HOSTS does not hold the WebSockets of a Playwright server's workers (it offers no"
    " DevTools connection to watch them): connect by a DevTools URL (BROWSE_CDP_URL, `connect --cdp`)"
    " for that"
)
# What still runs while the guard is down: leaving the browser, watching it again, and the daemon's own.
UNGUARDED_OK = ("connect", "disconnect")
GUARD_DOWN_HINT = (
    "run `browse connect --cdp URL` again once its DevTools endpoint answers (the daemon needs a"
    " connection of its own beside Playwright's), or `browse disconnect` for a local browser"
)


class RemoteHops:
    """Gates each request hop (DevTools `Fetch`) and WebSocket of a remote browser by host."""

    def __init__(self, policy: Policy, target: Callable[[], BrowserTarget], notices: Notices) -> None:
        self.policy = policy
        self.target = target
        self.notices = notices
        self.workers = WorkerSockets(policy, self._went_down)
        self._gated: weakref.WeakKeyDictionary[Browser, CDPSession] = weakref.WeakKeyDictionary()
        self._contexts: weakref.WeakSet[BrowserContext] = weakref.WeakSet()
        self._watched: weakref.ref[Browser] | None = None

    def refusing(self) -> str:
        """Why nothing may browse now (a remote browser whose workers are not guarded), or ""."""
        target = self.target()
        held = self.policy.allowed_hosts and target.remote and target.cdp_url
        return self.workers.down if held else ""

    def refusal(self, command: str) -> BrowseError | None:
        """The error for a command that would browse while the worker guard is down."""
        why = self.refusing()
        if not why or command in UNGUARDED_OK or COMMANDS[command]["cat"] == "meta":
            return None
        return Unavailable(
            f"refusing to browse: BROWSE_ALLOWED_HOSTS is set and the remote browser's workers are not"
            f" guarded: {why}",
            GUARD_DOWN_HINT,
        )

    def status_line(self) -> str:
        why = self.refusing()
        return (
            f"remote browser not used: its workers are not guarded under BROWSE_ALLOWED_HOSTS ({why})"
            if why
            else ""
        )

    async def rewatch(self) -> None:
        """Watch the remote browser again (`connect` to the browser already in use)."""
        browser = self._watched() if self._watched else None
        target = self.target()
        if browser is not None and target.cdp_url and self.refusing():
            await self.workers.watch(browser, target.cdp_url)

    def _went_down(self, why: str) -> None:
        """Fail closed: the tabs leave their pages, whose scripts could start workers no one guards."""
        if not self.refusing():
            return
        self.notices.add(f"the remote browser's workers are not guarded ({why}): every request is refused")
        for context in list(self._contexts):
            for page in context.pages:
                spawn(_blank(page))

    def outside(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in GATED_SCHEMES and not self.policy.host_allowed(parts.hostname or "")

    async def on_new_session(self, session: Session) -> None:
        target = self.target()
        if not (self.policy.allowed_hosts and target.remote):
            return
        browser = session.context.browser
        self._contexts.add(session.context)
        if browser is not None and browser not in self._gated:
            self._gated[browser] = await self._pause_requests(browser)
            if target.cdp_url:
                self._watched = weakref.ref(browser)
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
            if self.refusing():
                log.info("blocked a request while the remote browser's workers are not guarded: %s", url)
                await cdp.send("Fetch.failRequest", {"requestId": request_id, "errorReason": BLOCKED})
            elif self.outside(url):
                log.info("blocked a request outside BROWSE_ALLOWED_HOSTS: %s", url)
                await cdp.send("Fetch.failRequest", {"requestId": request_id, "errorReason": BLOCKED})
            else:
                await cdp.send("Fetch.continueRequest", {"requestId": request_id})
        except PlaywrightError as exc:  # the page closed, or the request was cancelled meanwhile
            log.debug("a paused request ended before it was decided: %s", exc)


async def _blank(page: Page) -> None:
    try:
        await page.goto("about:blank")
    except PlaywrightError as exc:
        log.info("could not leave %s: %s", page.url, exc)


async def _refuse_socket(socket: WebSocketRoute) -> None:
    log.info("refused a WebSocket outside BROWSE_ALLOWED_HOSTS: %s", socket.url)
    await socket.close(code=1008, reason="outside BROWSE_ALLOWED_HOSTS")
