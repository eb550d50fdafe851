"""The headed browser's extension: loaded at launch, then told per session how to reach the daemon.

The extension (files in `refbrowse/extension/`) gives the person at the window
a side panel with the session's activity page, a toolbar badge that is green
while the daemon answers, and a switch that labels the page's elements with
the @refs of the latest snapshot.

Loading: Playwright launches Chromium with `--disable-extensions`, which a
headed launch leaves out; the extension is then loaded through the DevTools
pipe Playwright already holds (`Extensions.loadUnpacked`, which Chrome builds
that ignore `--load-extension` still accept with
`--enable-unsafe-extension-debugging`). Each session is a browser context of
its own, which Chromium treats as an incognito profile: the extension is
loaded with `enableInIncognito` and declares `"incognito": "split"`, so every
session gets its own instance of it, with its own service worker, its content
script runs on the session's pages, and its panel shows that session.
(Measured with Playwright 1.65 and Chromium 156: loaded without
`enableInIncognito`, neither its worker nor its content script runs in a
session's context; with it but without split mode, one worker serves every
session and no context sees it.) No persistent context is needed, so sessions, the carry-over of `connect` and
`disconnect`, and headless mode stay as they are.

Access: a one-time link written into the extension's files would be stale by
the time a person opens the panel, and an Origin check alone would let any
local process that claims to be the extension in. So the daemon gives each
session's instance, through Playwright's handle on its service worker, the
activity listener's port, a random key of the activity page's
(`Access.extension_key`, not the daemon's bearer token) and the session's
name. Port and key go into `chrome.storage.session`, which lives in memory,
is shared by the instances and cannot be read by content scripts or pages;
the name stays in that worker. No file, URL or log holds them. With the key
the extension asks `/ext/code` for a one-time code for its panel's frame.
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import TYPE_CHECKING

from playwright.async_api import Browser, Worker
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.background import spawn

if TYPE_CHECKING:
    from refbrowse.daemon.core.session import Session
    from refbrowse.daemon.handlers import DaemonView
    from refbrowse.daemon.services.activity.site import ActivitySite

log = logging.getLogger("refbrowse")

HEADED_FLAGS = ("--enable-unsafe-extension-debugging",)
LEFT_OUT_FLAGS = ("--disable-extensions",)  # Playwright's default, which would keep it from running
# Only a session's own instance: the profile every session's context comes from has one too.
# The session's name goes into the worker, since chrome.storage.session is one for all instances.
_CONFIGURE = """({session, ...shared}) => {
  if (!chrome.extension.inIncognitoContext) return false;
  self.refbrowseSession = session;
  return chrome.storage.session.set(shared).then(() => true);
}"""


def folder() -> str:
    return str(resources.files("refbrowse").joinpath("extension"))


async def load(browser: Browser) -> str:
    """Load the extension into a local headed browser; its id, or "" if the browser refused it."""
    try:
        cdp = await browser.new_browser_cdp_session()
        try:
            loaded = await cdp.send("Extensions.loadUnpacked", {"path": folder(), "enableInIncognito": True})
        finally:
            await cdp.detach()
    except PlaywrightError as exc:
        # The window works without it: the activity page is still one `browse dashboard` away.
        log.warning("the extension did not load: %s", exc.message.splitlines()[0])
        return ""
    log.info("extension loaded: chrome-extension://%s", loaded["id"])
    return str(loaded["id"])


class ExtensionLink:
    """Tells each session's instance of the extension where the daemon is, and with what key."""

    def __init__(self, daemon: DaemonView, site: ActivitySite) -> None:
        self.daemon = daemon
        self.site = site

    def origin(self) -> str:
        found = self.daemon.host.extension_id
        return f"chrome-extension://{found}" if found else ""

    def follow_browser(self) -> None:
        """After `connect` or `disconnect`: frames and calls are let in only from the extension loaded now."""
        self.site.access.extension_origin = self.origin()

    async def attach(self, session: Session) -> None:
        origin = self.origin()
        if not origin:
            return
        await self.site.listen()
        self.site.access.extension_origin = origin
        session.context.on("serviceworker", lambda worker: spawn(self._configure(worker, session.name)))
        for worker in session.context.service_workers:
            spawn(self._configure(worker, session.name))

    async def _configure(self, worker: Worker, session: str) -> None:
        if not worker.url.startswith(self.origin() + "/"):
            return
        config = {"port": self.site.port, "key": self.site.access.extension_key, "session": session}
        try:
            await worker.evaluate(_CONFIGURE, config)
        except PlaywrightError as exc:  # the worker stopped meanwhile; its next start brings it back here
            log.info("extension worker not configured: %s", exc.message.splitlines()[0])

    def status_line(self) -> str:
        origin = self.origin()
        if not origin:
            return ""
        heard = self.site.heartbeat.line()
        return f"extension: {origin} (side panel, badge, @ref overlay)" + (f"; {heard}" if heard else "")


def install(daemon: DaemonView, site: ActivitySite) -> None:
    link = ExtensionLink(daemon, site)
    daemon.host.session_hooks.append(link.attach)
    daemon.host.switched.append(link.follow_browser)
    daemon.status_lines.append(link.status_line)
