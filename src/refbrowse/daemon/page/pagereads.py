"""Bounds on what is read from a page before it crosses Playwright's driver.

Playwright's node driver holds every value a page hands back, whole, on its way
to the daemon: a page that set a 280 MB `document.title` or returned a 300 MB
string from `js` killed the driver (out of memory), and with it every session's
tabs. So each read of page-controlled text is cut in the page, where a slice
costs nothing, and says how long the whole was. Only a primitive string's
`length` is trusted: a page may replace `String.prototype.slice`, never that.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.runtime.bounds import Late, bounded

TITLE_CHARS = 300  # a tab's title in `tabs`
SCRIPT_RESULT_CHARS = 1_000_000  # what `js` and `eval` bring back (a value's text, and its JSON)
CONSOLE_TEXT_CHARS = 2_000  # one console message as kept in the log
URL_CHARS = 2_000  # a request's URL as kept in the network log

_TITLE_JS = script("bounded_title")


async def title(page: Page, within_s: float = 2.0) -> str | None:
    """The page's title cut to `TITLE_CHARS`; "" when it has none or does not answer in time,
    None when the page is closed."""
    if page.is_closed():
        return None
    try:
        found = await bounded(page.evaluate(_TITLE_JS, TITLE_CHARS), within_s, "reading a tab's title")
    except (PlaywrightError, Late):
        return None if page.is_closed() else ""
    return found if isinstance(found, str) else ""


def cut_text(text: str, limit: int) -> str:
    """`text` kept to `limit` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters left out)"
