"""Extra request headers for one origin, added at each request hop to that origin and at no other.

A context route cannot scope a header to an origin: Playwright's route sees
only the first request of a redirect chain and puts the headers it was given
on every hop after it, so `Authorization` for A would follow A's 302 to any
host. So origin-scoped headers go through DevTools `Fetch` on the tab's own
kept session, paused only for URLs of those origins: Chromium pauses each
redirect hop again (a hop to A gets them again, a hop elsewhere is not paused
and carries none of them, since Chromium keeps no header override across a
redirect). What the tab's renderer loads (its documents, same-site frames,
their subresources and dedicated workers) passes there; a frame of another
site in a process of its own, a service worker, and a popup's very first
request before its settings are on get none of them: leaving a header out
is the safe side.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.runtime.background import spawn

log = logging.getLogger("refbrowse")

Header = list[str]  # [name, value, origin]


def origin_of_url(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}".lower()


def url_pattern(origin: str) -> str:
    """The DevTools `Fetch` pattern of every URL of `origin` (its wildcards escaped)."""
    escaped = "".join("\\" + char if char in "*?\\" else char for char in origin)
    return escaped + "/*"


def merged(request_headers: dict[str, str], extra: dict[str, str]) -> list[dict[str, str]]:
    """The request's headers with `extra` put in place of any of the same name, as `Fetch` takes them."""
    names = {name.lower() for name in extra}
    kept = {k: v for k, v in request_headers.items() if k.lower() not in names}
    return [{"name": k, "value": v} for k, v in {**kept, **extra}.items()]


class OriginHeaders:
    """Each page's `Fetch` interception for the origin-scoped headers of its session."""

    def __init__(self, cdp: CdpKeeper) -> None:
        self._cdp = cdp
        self._headers: dict[str, list[Header]] = {}  # session name -> its origin-scoped headers
        self._paused: weakref.WeakSet[Page] = weakref.WeakSet()  # pages with `Fetch` on
        self._listening: weakref.WeakSet[Page] = weakref.WeakSet()

    def set(self, session: str, headers: list[Header]) -> None:
        if any(only for _, _, only in headers):
            self._headers[session] = [list(h) for h in headers]
        else:
            self._headers.pop(session, None)

    def origins(self, session: str) -> list[str]:
        return sorted({only for _, _, only in self._headers.get(session, []) if only})

    def extra_for(self, session: str, url: str) -> dict[str, str]:
        """What a hop to `url` gets here: its origin's headers and those for every origin, or nothing.

        A hop to one of the origins gets the headers for every origin here too:
        the context route leaves it alone (see `netconditions`).
        """
        origin = origin_of_url(url)
        headers = self._headers.get(session, [])
        if origin not in {only for _, _, only in headers}:
            return {}
        return {name: value for name, value, only in headers if not only or only == origin}

    async def on_page(self, session: str, page: Page) -> None:
        """Pause the page's requests to the session's origins (or none) from now on."""
        origins = self.origins(session)
        if page.is_closed() or not (origins or page in self._paused):
            return
        cdp = await self._cdp.session(page)
        if not origins:
            self._paused.discard(page)
            await cdp.send("Fetch.disable")
            return
        if page not in self._listening:
            self._listening.add(page)
            cdp.on("Fetch.requestPaused", lambda event: spawn(self._continue(cdp, session, event)))
        self._paused.add(page)
        patterns = [{"urlPattern": url_pattern(o), "requestStage": "Request"} for o in origins]
        await cdp.send("Fetch.enable", {"patterns": patterns})

    async def _continue(self, cdp: CDPSession, session: str, event: dict[str, Any]) -> None:
        """Let the paused hop go on, with the headers of its own origin (checked again here) and no others."""
        request = event["request"]
        params: dict[str, Any] = {"requestId": event["requestId"]}
        extra = self.extra_for(session, request["url"])
        if extra:
            params["headers"] = merged(request["headers"], extra)
        try:
            await cdp.send("Fetch.continueRequest", params)
        except PlaywrightError as exc:  # the tab closed, or the request was cancelled meanwhile
            log.debug("a paused request ended before it went on: %s", exc)
