"""`select` on a menu button drawn without menu roles: open it, then click the item of that name.

Apps build their menus from plain parts: a "More actions" toggle that says it
expands (or nothing at all) and reveals a few buttons, an icon in a column
header that shows a box of links. What the click reveals is the menu: the
buttons, links and menu items shown after it that were not shown before. The
item is the one of those with the name asked (exactly, else the only one
ignoring case); clicking it is the action whose effect the report gives.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import JSHandle, Locator, Page

from refbrowse.daemon.action import options
from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.action.viewdiff import Asked
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.errors import PageError

OPEN_WAIT_MS = 2_000  # for the menu's items to show once it is clicked
_POLL_S = 0.1
_LISTED = 20  # item names an error lists
_ROLES = ("menuitem", "menuitemcheckbox", "menuitemradio", "option", "button", "link")
_ITEMS_JS = script("menu_items")
_NEW_JS = script("menu_item_new")
_OUTSIDE_JS = script("click_outside")


async def choose(
    call: ActingCall, page: Page, selector: str, target: Locator, name: str, asked: Asked | None
) -> str:
    """Click `target`, then the item named `name` among what the click revealed; the report."""
    before = await page.evaluate_handle(_ITEMS_JS)

    async def open_and_choose() -> None:
        clicked = await options.clicked_on(target) or "it"
        await target.click()
        try:
            item = await _item(page, selector, target, before, name, clicked)
        finally:
            await before.dispose()
        await item.click()

    outcome = await perform(call, f"choosing {name} in the menu of {selector}", open_and_choose, asked=asked)
    return outcome.report(f"Clicked {json.dumps(name, ensure_ascii=False)} in the menu of {selector}")


async def _item(
    page: Page, selector: str, target: Locator, before: JSHandle, name: str, clicked: str
) -> Locator:
    """The revealed item of that name, once it shows (a menu may fill in after it opens); else the
    menu is closed again and the error lists the items it showed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + OPEN_WAIT_MS / 1000
    while True:
        names = await _revealed(page, before)
        item = await _named(page, before, name) if names else None
        if item is not None:
            return item
        if loop.time() >= deadline:
            break
        await asyncio.sleep(_POLL_S)
    on = json.dumps(clicked, ensure_ascii=False)
    if not names:
        raise PageError(
            f"{selector} is not a <select> or a dropdown: clicking it showed no new buttons or links",
            f"it was clicked once, on {on}; look at the page with `browse snapshot -i`",
        )
    await _close(page, target, before)
    listed = ", ".join(names[:_LISTED])
    raise PageError(
        f"the menu of {selector} has no item {json.dumps(name)} (select clicked {selector} once, on {on})",
        f"its items are: {listed}",
    )


async def _revealed(page: Page, before: JSHandle) -> list[str]:
    """The names of the items the click revealed so far."""
    try:
        return list(await page.evaluate(_ITEMS_JS, before))
    except PlaywrightError:  # the click went to another page: it opened no menu here
        return []


async def _named(page: Page, before: JSHandle, name: str) -> Locator | None:
    """The revealed item named `name` exactly (the first), else the only one ignoring case."""
    loose = re.compile(rf"^\s*{re.escape(name.strip())}\s*$", re.IGNORECASE)
    for wanted, exact in ((name.strip(), True), (loose, False)):
        found: list[Locator] = []
        for role in _ROLES:
            shown = shown_by_role(page, role, name=wanted, exact=exact)
            found += [one for one in await shown.all() if await one.evaluate(_NEW_JS, before)]
        if found and (exact or len(found) == 1):
            return found[0]
    return None


async def _close(page: Page, target: Locator, before: JSHandle) -> None:
    """Close the menu as a person would: Escape, else its button again, else a click outside it."""
    steps = (
        lambda: page.keyboard.press("Escape"),
        lambda: target.click(),
        lambda: page.evaluate(_OUTSIDE_JS),
    )
    for step in steps:
        try:
            await step()
            await asyncio.sleep(_POLL_S)
            if not await page.evaluate(_ITEMS_JS, before):
                return
        except PlaywrightError:
            return


def shown_by_role(scope: Page | Locator, role: str, **named: Any) -> Locator:
    """The visible elements of an ARIA role given as a word (read from the page, or one of ours)."""
    found = scope.get_by_role(role, **named)  # type: ignore[arg-type] # Playwright types role as a literal
    return found.filter(visible=True)
