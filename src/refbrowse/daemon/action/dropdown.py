"""`select` on a dropdown that is not a `<select>`: open it, then click the option of that name.

Component libraries draw their dropdowns as an ARIA combobox or a button
that pops up a listbox or a menu; a person opens one and clicks the option.
A menu button drawn without those roles is left to `menu`.
Done as one action, its report says what the dropdown shows now, and the
agent saves the click that opens it and the look for the option's ref.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action import menu
from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.action.viewdiff import Asked
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.errors import PageError

OPEN_WAIT_MS = 2_000  # for the dropdown's options to show once it is clicked
TYPED_WAIT_MS = 1_000  # for a combobox's list to show an option named as the text typed
_LISTED = 20  # option names an error lists
MENUS_WITHOUT_ROLES = ("disclosure", "clickable")  # kinds `menu` handles: no popup role said
_KIND_JS = script("dropdown_kind")
_VALUE_JS = script("dropdown_value")
_NAMES_JS = script("option_names")


async def choose(
    call: ActingCall, page: Page, selector: str, target: Locator, wanted: list[str], asked: Asked | None
) -> str:
    """Open the dropdown `target` and click its option named `wanted[0]`; the report."""
    kind = await _kind(selector, target)
    if len(wanted) != 1:
        raise PageError(f"{selector} is a dropdown: it takes one option", "select one option per call")
    if kind["popup"] in MENUS_WITHOUT_ROLES:
        return await menu.choose(call, page, selector, target, wanted[0], asked)
    open_and_choose = _opener(page, selector, target, kind, wanted[0])
    held = await target.element_handle()  # the element itself: a ref by name is stale once the name changes
    outcome = await perform(call, f"selecting in {selector}", open_and_choose, asked=asked)
    now = await _shown(held)
    await held.dispose()
    return outcome.report(f"Selected {wanted[0]} in {selector}{now}")


async def opening(page: Page, selector: str, target: Locator, name: str) -> Callable[[], Awaitable[None]]:
    """The action that opens the dropdown `target` and clicks its option `name` (for `fill`).

    Only a dropdown that says it is one: a menu drawn without roles is found
    out by clicking it, which a fill must not do.
    """
    kind = await _kind(selector, target)
    if kind["popup"] in MENUS_WITHOUT_ROLES:
        raise PageError(
            f"{selector} is a menu, not a dropdown", f"`browse select {selector} ITEM` clicks its item"
        )
    return _opener(page, selector, target, kind, name)


async def _kind(selector: str, target: Locator) -> dict[str, str]:
    kind = await target.evaluate(_KIND_JS)
    if kind is None:
        raise PageError(
            f"{selector} is not a <select> or a dropdown",
            "select does not open a link, a submit button or a field as a menu:"
            " `browse click` or `browse fill` it",
        )
    return dict(kind)


def _opener(
    page: Page, selector: str, target: Locator, kind: dict[str, str], name: str
) -> Callable[[], Awaitable[None]]:
    role = "menuitem" if kind["popup"] == "menu" else "option"

    async def open_and_choose() -> None:
        await target.click()
        await _click_option(page, selector, role, str(kind["controls"]), name)

    return open_and_choose


async def _click_option(page: Page, selector: str, role: str, controls: str, name: str) -> None:
    shown = menu.shown_by_role(page, role)
    try:
        await shown.first.wait_for(state="visible", timeout=OPEN_WAIT_MS)
    except PlaywrightError:
        await page.keyboard.press("Escape")
        raise PageError(
            f"{selector} showed no options when clicked",
            "look at it with `browse snapshot -i`: it may need text typed first (`browse type`)",
        ) from None
    scope = page.locator(f"[id={json.dumps(controls)}]") if controls else page
    option = await _named(scope, role, name) or await _named(page, role, name)
    if option is None:
        names = (await shown.evaluate_all(_NAMES_JS))[:_LISTED]
        await page.keyboard.press("Escape")
        listed = ", ".join(names)
        raise PageError(f"{selector} has no option {json.dumps(name)}", f"its options are: {listed}")
    await option.click()


async def pick_typed(page: Page, name: str) -> bool:
    """After text was typed into a combobox: click the option its list shows by that very name.

    A select drawn as a field (Streamlit's, BaseWeb's) keeps only a chosen option: what was typed
    filters the list and goes. A field that takes free text keeps the text when no option is named so.
    """
    named = re.compile(f"^\\s*{re.escape(name.strip())}\\s*$", re.IGNORECASE)
    options = page.get_by_role("option", name=named).filter(visible=True)
    try:
        await options.first.wait_for(state="visible", timeout=TYPED_WAIT_MS)
    except PlaywrightError:
        return False
    exact = page.get_by_role("option", name=name.strip(), exact=True).filter(visible=True)
    if await exact.count() == 1:
        await exact.click()
    elif await options.count() == 1:
        await options.click()
    else:
        return False
    return True


async def _named(scope: Page | Locator, role: str, name: str) -> Locator | None:
    """The visible option of that name (exactly, else ignoring case and spaces at the ends)."""
    for exact in (True, False):
        found = menu.shown_by_role(scope, role, name=name.strip(), exact=exact)
        count = await found.count()
        if count == 1 or (exact and count > 1):
            return found.first
    return None


async def _shown(target: ElementHandle) -> str:
    """`: now "X"`, what the dropdown shows once chosen; empty when it cannot be read (it went)."""
    try:
        shown = await asyncio.wait_for(target.evaluate(_VALUE_JS), 1.0)
    except (PlaywrightError, TimeoutError):
        return ""
    return f": now {json.dumps(shown, ensure_ascii=False)}" if shown else ""
