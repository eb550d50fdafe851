"""Bring up a browser for a target: launch a local Chromium (headless or headed) or reach a remote one.

`BrowserHost` calls these and keeps what they return; nothing here holds
state. Secrets stay out of the processes started here (`without_secrets`), and
a proxy's credentials out of Chromium's command line (`proxy_settings`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import unquote, urlsplit

from playwright.async_api import Browser, Playwright, ProxySettings
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser import extension_loader, poolrefusal
from refbrowse.daemon.core.browser.chromium import (
    LEFT_OUT_DEFAULTS,
    ChromiumNotFound,
    find_chromium,
    launch_flags,
)
from refbrowse.daemon.core.browser.display import VirtualDisplay, needs_virtual_display
from refbrowse.daemon.core.browser.target import CHANNEL_NAMES, BrowserTarget, channel_path, from_env, scrub
from refbrowse.errors import Unavailable
from refbrowse.protocol import SECRET_ENV

log = logging.getLogger("refbrowse")

CONNECT_TIMEOUT_MS = 15_000


async def connect(playwright: Playwright, target: BrowserTarget) -> Browser:
    """The remote browser of `target`, over CDP or Playwright's protocol."""
    chromium = playwright.chromium
    log.info("connecting to the remote browser at %s", target.endpoint)
    try:
        if target.cdp_url:
            return await chromium.connect_over_cdp(target.cdp_url, timeout=CONNECT_TIMEOUT_MS)
        return await chromium.connect(target.ws_endpoint, timeout=CONNECT_TIMEOUT_MS)
    except PlaywrightError as exc:
        first = scrub(exc.message.strip().splitlines()[0] if exc.message.strip() else "no answer")
        variable = "BROWSE_CDP_URL" if target.cdp_url else "BROWSE_WS_ENDPOINT"
        refused = poolrefusal.refusal(first, target.endpoint, variable)
        if refused is not None:
            raise refused from exc
        chosen = target != from_env()  # by `connect --cdp`, not by the environment
        hint = "run `browse disconnect` to use a local browser" if chosen else f"check {variable}"
        raise Unavailable(
            f"cannot reach the remote browser at {target.endpoint}: {first}",
            f"check that it is running, or {hint}",
        ) from exc


async def launch(
    playwright: Playwright, target: BrowserTarget, display: VirtualDisplay
) -> tuple[Browser, str, str]:
    """A local browser for `target`, its executable, and the id of the extension it loaded ("" for none)."""
    executable = executable_for(target)
    env: dict[str, str | float | bool] | None = None
    if target.headed and needs_virtual_display():
        env = {k: v for k, v in os.environ.items() if k not in SECRET_ENV}
        await display.start()
        env.update(display.client_env())
    extensions = extension_loader.wanted(target.headed)
    browser = await playwright.chromium.launch(
        executable_path=executable,
        headless=not target.headed,
        args=launch_flags(target.headed) + list(extension_loader.HEADED_FLAGS if extensions else ()),
        ignore_default_args=[
            *LEFT_OUT_DEFAULTS,
            *(extension_loader.LEFT_OUT_FLAGS if extensions else ()),
        ],
        proxy=proxy_settings(target.proxy),
        env=env,
    )
    extension_id = await extension_loader.load(browser) if target.headed else ""
    await extension_loader.load_user(browser)
    return browser, executable, extension_id


def executable_for(target: BrowserTarget) -> str:
    """The Chromium or Chrome channel to launch for `target`."""
    if target.channel:
        found = channel_path(target.channel)
        if not found:
            name = CHANNEL_NAMES.get(target.channel, target.channel)
            raise Unavailable(f"{name} is not installed here", "run `browse connect` to use Chromium")
        return found
    try:
        return find_chromium()
    except ChromiumNotFound as exc:
        raise Unavailable(str(exc), exc.hint) from exc


@contextmanager
def without_secrets() -> Iterator[None]:
    """Keep `protocol.SECRET_ENV` out of the environment of processes started meanwhile
    (Playwright's driver, and through it Chromium): /proc shows it for their whole life."""
    saved = {k: os.environ.pop(k) for k in SECRET_ENV if k in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def proxy_settings(url: str) -> ProxySettings | None:
    """Playwright's proxy settings for `url`, its credentials apart from the server:
    in the server string they would reach Chromium's command line."""
    if not url:
        return None
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.username is None:
        return {"server": url}
    host = parts.hostname or ""
    server = f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
    return {"server": server, "username": unquote(parts.username), "password": unquote(parts.password or "")}
