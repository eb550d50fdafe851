"""Loading a URL in a tab, as an action: the load, its retries, and the report of where it went.

`goto`, `newtab` and `diff` load what the caller named, once it has passed the
daemon's URL policy (`Policy.checked_url`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Literal

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response

from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.action.report import Outcome
from refbrowse.daemon.core.browser.pwerrors import interrupted_by_navigation, translate
from refbrowse.daemon.core.sessions.tab import Tab

_LOAD_ATTEMPTS = 3
LoadState = Literal["commit", "load"]
CHROME_ERROR_PAGE = "chrome-error://chromewebdata/"


@dataclass(frozen=True, slots=True)
class FailedLoad:
    """A load that failed: the URL asked for, why, and the URL the tab showed then."""

    url: str
    error: str
    left_on: str


class LastLoad:
    """The last `goto` of a tab that failed, while the tab stays put (in its `TabMemory`)."""

    def __init__(self) -> None:
        self.failed: FailedLoad | None = None


async def load(page: Page, url: str, timeout_ms: int, until: LoadState = "load") -> Response | None:
    """Navigate `page` to `url`; a failure names the URL and what to check.

    `until` "commit" answers once the server's response arrived (`--no-wait`), without waiting
    for the document's images and scripts. A load interrupted by another navigation waits for
    that one: if the tab ends up on a real page, that is where it went; if it ends up on
    Chromium's error page for an earlier failed load, the load is tried again.
    """
    for attempt in range(_LOAD_ATTEMPTS):
        try:
            return await page.goto(url, timeout=timeout_ms, wait_until=until)
        except PlaywrightError as exc:
            if attempt == _LOAD_ATTEMPTS - 1 or not interrupted_by_navigation(exc):
                raise translate(exc, f"loading {url}") from exc
        with suppress(PlaywrightError):
            await page.wait_for_load_state(
                "domcontentloaded" if until == "commit" else "load", timeout=timeout_ms
            )
        if not page.url.startswith("chrome-error://"):
            return None
    return None


async def navigate(
    call: ActingCall, doing: str, step: Callable[[], Awaitable[Response | None]], tab: Tab | None = None
) -> tuple[Outcome, Response | None]:
    """Run a navigation through `perform.perform`; its outcome and the main response."""
    responses: list[Response | None] = []

    async def go() -> None:
        responses.append(await step())

    outcome = await perform(call, doing, go, navigation=True, tab=tab)
    return outcome, responses[0] if responses else None
