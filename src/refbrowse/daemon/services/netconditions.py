"""Extra request headers, offline and throttling: the session's network conditions.

Headers for every origin are added by one context route that lets every
request through with them (`route.fallback(headers=…)`), so they never fight
with the user agent's own header; headers for one origin are added at each
hop to that origin by `originheaders` (a route's headers follow its redirects
to any host). Offline is the context's own switch.
Throttling is Chromium's `Network.emulateNetworkConditions` on each page's kept
DevTools session, so new tabs get it from the tab hook.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Page, Route

from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.originheaders import OriginHeaders
from refbrowse.daemon.services.sessionsettings import Family, SessionSettings, Value

# Chrome DevTools' presets: bytes a second and round-trip latency in ms.
THROTTLE_PRESETS: dict[str, dict[str, float]] = {
    "slow-3g": {"downloadThroughput": 50_000, "uploadThroughput": 50_000, "latency": 2_000},
    "fast-3g": {"downloadThroughput": 180_000, "uploadThroughput": 84_375, "latency": 562.5},
}
_NO_THROTTLE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}

_SECRET_NAME = re.compile(r"(?i)auth|cookie|token|secret|key|session|pass|signature|credential")
HIDDEN = "(redacted)"


def is_secret_header(name: str) -> bool:
    """Authorization, Cookie, X-Api-Key and the like: their values are never echoed."""
    return bool(_SECRET_NAME.search(name))


def shown_value(name: str, value: str) -> str:
    return HIDDEN if is_secret_header(name) else value


Header = list[str]  # [name, value, origin ("" for every origin)]


class Headers(Family):
    key = "headers"

    def __init__(self, cdp: CdpKeeper) -> None:
        self._routes: dict[str, Callable[[Route], Awaitable[None]]] = {}
        self.scoped = OriginHeaders(cdp)

    async def on_context(self, session: Session, value: Value) -> None:
        headers = [list(h) for h in value or []]
        self.scoped.set(session.name, headers)
        old = self._routes.pop(session.name, None)
        if old is not None:
            await session.context.unroute("**/*", old)
        if any(not only for _, _, only in headers):
            handler = _adder(headers)
            self._routes[session.name] = handler
            await session.context.route("**/*", handler)

    async def on_page(self, session: Session, page: Page, value: Value) -> None:
        await self.scoped.on_page(session.name, page)

    def describe(self, value: Value) -> str:
        return "; ".join(f"{n}: {shown_value(n, v)}" + (f" (on {o})" if o else "") for n, v, o in value)


def _adder(headers: list[Header]) -> Callable[[Route], Awaitable[None]]:
    """The route for the headers of every origin.

    Playwright puts the headers a route hands on onto every redirect hop after
    it. A request to an origin with headers of its own got them (and these)
    from `originheaders` before this route: it goes on untouched, so that no
    hop elsewhere inherits them. One that missed them (a frame of another
    site) gets only the headers for every origin.
    """
    every = {name: value for name, value, only in headers if not only}
    names = {n.lower() for n in every}

    async def add(route: Route) -> None:
        origin = _origin(route.request.url)
        scoped = {(n.lower(), v) for n, v, only in headers if only == origin}
        sent = {(k.lower(), v) for k, v in route.request.headers.items()}
        if scoped and scoped <= sent:
            await route.fallback()
            return
        kept = {
            k: v
            for k, v in route.request.headers.items()
            if k.lower() not in names and (k.lower(), v) not in scoped
        }
        await route.fallback(headers={**kept, **every})

    return add


def _origin(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}".lower()


def origin_of(url: str) -> str:
    """`https://example.com:8443` from any URL of that origin."""
    return _origin(url.rstrip("/") + "/")


class Throttle(Family):
    key = "throttle"

    def __init__(self, cdp: CdpKeeper, settings: SessionSettings) -> None:
        self._cdp = cdp
        self._settings = settings
        self._throttled: weakref.WeakSet[Page] = weakref.WeakSet()

    async def on_page(self, session: Session, page: Page, value: Value) -> None:
        await self.send(session, page)

    async def send(self, session: Session, page: Page) -> None:
        """The page's conditions, offline included: ours would otherwise undo the context's offline."""
        preset = self._settings.value(session.name, "throttle")
        if page.is_closed() or (preset is None and page not in self._throttled):
            return
        cdp = await self._cdp.session(page)
        offline = bool(self._settings.value(session.name, "offline"))
        conditions: dict[str, Any] = {
            **_NO_THROTTLE,
            **THROTTLE_PRESETS.get(str(preset), {}),
            "offline": offline,
        }
        await cdp.send("Network.enable")
        await cdp.send("Network.emulateNetworkConditions", conditions)
        if preset is None and not offline:  # what we sent is the default: nothing to take back later
            self._throttled.discard(page)
        else:
            self._throttled.add(page)

    def describe(self, value: Value) -> str:
        preset = THROTTLE_PRESETS[value]
        down = preset["downloadThroughput"] * 8 / 1000
        return f"{value} ({down:.0f} kbit/s down, {preset['latency']:g} ms latency)"


class Offline(Family):
    key = "offline"

    def __init__(self, throttle: Throttle) -> None:
        self._throttle = throttle

    async def on_context(self, session: Session, value: Value) -> None:
        await session.context.set_offline(bool(value))

    async def on_page(self, session: Session, page: Page, value: Value) -> None:
        await self._throttle.send(session, page)

    def describe(self, value: Value) -> str:
        return "on (requests fail, navigator.onLine is false)"
