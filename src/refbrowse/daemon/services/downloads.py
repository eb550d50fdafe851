"""Downloads nobody asked for are cancelled and their files removed.

A page may start a download on its own (a redirect to a file, a script); only
a `download` command saves one, and it says so by marking its page as waiting
here for as long as it waits.
"""

from __future__ import annotations

import logging
import weakref

from playwright.async_api import Download, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab

log = logging.getLogger("refbrowse")


class WantedDownloads:
    """The pages whose next download a `download` command is waiting for."""

    def __init__(self) -> None:
        self._waiting: weakref.WeakSet[Page] = weakref.WeakSet()

    def add(self, page: Page) -> None:
        self._waiting.add(page)

    def discard(self, page: Page) -> None:
        self._waiting.discard(page)

    def __contains__(self, page: object) -> bool:
        return page in self._waiting

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        page = tab.page
        page.on("download", lambda download: self._refuse_unasked(page, download))

    def _refuse_unasked(self, page: Page, download: Download) -> None:
        if page in self._waiting:
            self._waiting.discard(page)  # claimed: the command's `expect_download` gets this same one
            return
        log.warning("cancelled a download the page started on its own: %s", download.url)
        spawn(_discard(download))


async def _discard(download: Download) -> None:
    try:
        await download.cancel()
        await download.delete()
    except PlaywrightError as exc:
        log.info("could not discard the download of %s: %s", download.url, exc)
