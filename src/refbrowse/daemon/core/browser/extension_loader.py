"""The headed browser's extension, loaded at launch: the flags it needs and the loading itself.

The extension's files are in `refbrowse/extension/`; telling each session's
instance of it where the daemon is belongs to `services.extension`.
"""

from __future__ import annotations

import logging
from importlib import resources

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger("refbrowse")

HEADED_FLAGS = ("--enable-unsafe-extension-debugging",)
LEFT_OUT_FLAGS = ("--disable-extensions",)  # Playwright's default, which would keep it from running


# Only a session's own instance: the profile every session's context comes from has one too.
# The session's name goes into the worker, since chrome.storage.session is one for all instances.
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
