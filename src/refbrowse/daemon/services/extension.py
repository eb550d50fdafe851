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
from typing import TYPE_CHECKING

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Worker

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.runtime.background import spawn

if TYPE_CHECKING:
    from refbrowse.daemon.core.browser.host import BrowserHost
    from refbrowse.daemon.core.sessions.session import Session
    from refbrowse.daemon.services.activity.site import ActivitySite

log = logging.getLogger("refbrowse")

_CONFIGURE = script("extension_configure")


class ExtensionLink:
    """Tells each session's instance of the extension where the daemon is, and with what key."""

    def __init__(self, host: BrowserHost, site: ActivitySite) -> None:
        self.host = host
        self.site = site

    def origin(self) -> str:
        found = self.host.extension_id
        return f"chrome-extension://{found}" if found else ""

    def on_browser_switched(self) -> None:
        """After `connect` or `disconnect`: frames and calls are let in only from the extension loaded now."""
        self.site.access.extension_origin = self.origin()

    async def on_new_session(self, session: Session) -> None:
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
