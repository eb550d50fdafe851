"""Every selector argument goes through here: a CSS selector, `@eN` or `@cN`.

Resolution checks the element exists before any action, so a missing element
is a clear message at once, never a timeout.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from refbrowse.errors import ElementNotFound
from refbrowse.pwerrors import translate
from refbrowse.refs import parse_ref
from refbrowse.session import Tab


async def resolve(tab: Tab, selector: str) -> Locator:
    """A locator for `selector` that matches at least one element right now."""
    ref = parse_ref(selector)
    locator = tab.refs.locator(ref) if ref else tab.page.locator(selector)
    try:
        count = await locator.count()
    except PlaywrightError as exc:
        raise translate(exc, f"resolving {selector!r}") from exc
    if count == 0:
        raise ElementNotFound(
            f"no element matches {selector!r} on {tab.page.url}",
            "check the selector, or run `browse snapshot -i` and use a ref",
        )
    return locator
