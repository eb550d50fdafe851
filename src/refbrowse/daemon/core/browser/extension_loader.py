"""The headed browser's extension, loaded at launch: the flags it needs and the loading itself.

The extension's files are in `refbrowse/extension/`; telling each session's
instance of it where the daemon is belongs to `services.extension`.
"""

from __future__ import annotations

import logging
import os
from importlib import resources

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger("refbrowse")

HEADED_FLAGS = ("--enable-unsafe-extension-debugging",)
USER_ENV = "BROWSE_EXTENSIONS"  # the user's unpacked extensions, loaded headless and headed


def user_folders() -> list[str]:
    """The folders BROWSE_EXTENSIONS names (comma-separated), absolute."""
    return [os.path.abspath(p.strip()) for p in os.environ.get(USER_ENV, "").split(",") if p.strip()]


def wanted(headed: bool) -> bool:
    """Whether the browser must be able to load extensions: ours when headed, the user's always."""
    return headed or bool(user_folders())


async def load_user(browser: Browser) -> list[str]:
    """Load BROWSE_EXTENSIONS; a line for each that did not load (the browser runs without it)."""
    refused = []
    for path in user_folders():
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            refused.append(f"{USER_ENV}: {path} has no manifest.json; left out")
            continue
        try:
            await _load_unpacked(browser, path)
        except PlaywrightError as exc:
            refused.append(f"{USER_ENV}: {path} did not load ({exc.message.splitlines()[0]}); left out")
    for line in refused:
        log.warning("%s", line)
    return refused


async def _load_unpacked(browser: Browser, path: str) -> str:
    cdp = await browser.new_browser_cdp_session()
    try:
        loaded = await cdp.send("Extensions.loadUnpacked", {"path": path, "enableInIncognito": True})
    finally:
        await cdp.detach()
    log.info("extension %s loaded: chrome-extension://%s", path, loaded["id"])
    return str(loaded["id"])


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
