"""Open a browser context with a session's saved state, never held up or refused by that state.

A saved state the browser refuses, or takes too long to restore, is set
aside: the context opens clean and the listeners hear why.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Browser, BrowserContext
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.runtime.background import spawn

log = logging.getLogger("refbrowse")

RESTORE_TIMEOUT_S = 15.0  # a saved state the browser cannot take back in this time is set aside


def restore_limit_s() -> float:
    """`RESTORE_TIMEOUT_S`, or `BROWSE_RESTORE_TIMEOUT` (ms) when it is a number."""
    try:
        return max(1, int(os.environ["BROWSE_RESTORE_TIMEOUT"])) / 1000
    except (KeyError, ValueError):
        return RESTORE_TIMEOUT_S


async def open_context(
    browser: Browser, options: dict[str, Any], refused: Callable[[str], None]
) -> BrowserContext:
    """A new context of `browser`; a `storage_state` it cannot restore: `refused(why)`, a clean one."""
    if "storage_state" not in options:
        return await browser.new_context(**options)
    opening = asyncio.ensure_future(browser.new_context(**options))
    limit_s = restore_limit_s()
    try:
        return await asyncio.wait_for(asyncio.shield(opening), limit_s)
    except TimeoutError:
        opening.add_done_callback(_close_late_context)
        why = f"not restored (restoring it took over {limit_s:g} s)"
    except PlaywrightError as exc:
        reason = exc.message.splitlines()[0] if exc.message else "no reason given"
        why = f"unreadable (the browser refused it: {reason})"
    refused(why)
    options.pop("storage_state")
    return await browser.new_context(**options)


def _close_late_context(opening: asyncio.Future[BrowserContext]) -> None:
    """A context whose restore was given up on still opens later: close it then."""
    if not opening.cancelled() and opening.exception() is None:
        spawn(quietly(opening.result().close()))


async def quietly(step: Awaitable[object]) -> None:
    """Shutdown steps: a browser that is already gone must not stop the rest."""
    try:
        await step
    except Exception as exc:  # noqa: BLE001 - shutdown goes on whatever one step says
        log.info("shutdown step failed: %s", exc)
