"""What pages may load on their own: the URL policy applied to navigations a page starts.

`goto`, `newtab`, `diff` and `download` check the caller's URL before loading
it (`Policy.checked_url`). This module covers what a page does afterwards:
with `BROWSE_ALLOWED_HOSTS` set, every request of every tab (navigations and
subresources) to another host is aborted (the route sees a redirect chain's first
request only, and no WebSocket: a browser this daemon launches also resolves no
other host, see `chromium.host_rules`, and `remotehops` checks a remote one's); and a frame that reaches a `file://`
URL it was not granted (by `--allow-file` on the command that loaded it, or
`BROWSE_ALLOW_FILE=1`), or any file of the state directory, is sent to
about:blank. Under a host policy every document also gets `rtc_guard.js`:
WebRTC's ICE servers and remote candidates outside the policy are refused (a
launched browser also sends WebRTC no UDP, see `chromium.host_rules`; a remote
one has the guard alone).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable
from urllib.parse import unquote, urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page, Route

from refbrowse.daemon.core.devtools.scripts import called
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.services.policy import Policy

log = logging.getLogger("refbrowse")


class FileGrants:
    """The file:// URL a command with --allow-file loaded in each page: that one document may stay."""

    def __init__(self) -> None:
        self._granted: weakref.WeakKeyDictionary[Page, str] = weakref.WeakKeyDictionary()

    def grant(self, page: Page, url: str) -> None:
        if url.lower().startswith("file:"):
            self._granted[page] = url

    def on_tab_carried(self, old: Page, new: Page) -> None:
        """`new` stands in for `old` in another browser: the document `old` was granted may load there."""
        if old in self._granted and self._granted[old] == old.url:
            self._granted[new] = old.url

    def granted(self, frame: Frame) -> bool:
        return frame.parent_frame is None and self._granted.get(frame.page) == frame.url


def _file_allowed(policy: Policy, grants: FileGrants, frame: Frame) -> bool:
    parts = urlsplit(frame.url)
    if policy.file_url_forbidden(unquote(parts.path)):
        return False
    return policy.allow_file or grants.granted(frame)


def _on_navigated(policy: Policy, grants: FileGrants, frame: Frame) -> None:
    if not frame.url.lower().startswith("file:") or _file_allowed(policy, grants, frame):
        return
    log.warning("a page navigated to %s without permission: sent to about:blank", frame.url)
    spawn(_blank(frame))


async def _blank(frame: Frame) -> None:
    try:
        await frame.goto("about:blank")
    except PlaywrightError as exc:
        log.info("could not leave %s: %s", frame.url, exc)


def _route_hosts(policy: Policy) -> Callable[[Route], Awaitable[None]]:
    async def gate(route: Route) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and not policy.host_allowed(parts.hostname or ""):
            log.info("blocked a request outside BROWSE_ALLOWED_HOSTS: %s", route.request.url)
            await route.abort("blockedbyclient")
        else:
            await route.fallback()

    return gate


class Confinement:
    """Watches every tab's frames for file:// URLs, and gates every request by host when hosts are limited."""

    def __init__(self, policy: Policy, grants: FileGrants) -> None:
        self.policy = policy
        self.grants = grants

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        tab.page.on("framenavigated", lambda frame: _on_navigated(self.policy, self.grants, frame))

    async def on_new_session(self, session: Session) -> None:
        if self.policy.allowed_hosts:
            await session.context.route("**/*", _route_hosts(self.policy))
            await session.context.add_init_script(script=called("rtc_guard", self.policy.host_regexes()))
