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
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action import menu, options
from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.action.viewdiff import Asked
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.errors import PageError

OPEN_WAIT_MS = 2_000  # for the dropdown's options to show once it is clicked
LISTED_WAIT_MS = 300  # once the list shows options, for the one named to show among them
TYPED_WAIT_MS = 1_000  # for a combobox's list to show an option named as the text typed
_POLL_S = 0.1
MENUS_WITHOUT_ROLES = ("disclosure", "clickable")  # kinds `menu` handles: no popup role said
_KIND_JS = script("dropdown_kind")
_VALUE_JS = script("dropdown_value")
_OPEN_JS = script("dropdown_open")


async def choose(
    call: ActingCall, page: Page, selector: str, target: Locator, wanted: list[str], asked: Asked | None
) -> str:
    """Open the dropdown `target` and click its option of each name in `wanted` (several only where
    the box takes several); its list, when it stays open, is closed after; the report."""
    kind = await _kind(selector, target)
    if len(wanted) != 1 and (kind["popup"] in MENUS_WITHOUT_ROLES or not _takes_several(kind)):
        raise PageError(f"{selector} is a dropdown: it takes one option", "select one option per call")
    if kind["popup"] in MENUS_WITHOUT_ROLES:
        return await menu.choose(call, page, selector, target, wanted[0], asked)
    held = await target.element_handle()  # the element itself: a ref by name is stale once the name changes

    async def choose_each() -> None:
        for k, name in enumerate(wanted):
            now = kind if k == 0 else await _kind(selector, held)  # opened by the last pick, or shut
            if k and not now.get("open") and not kind.get("shown") and await _shows_one(held, wanted[0]):
                raise PageError(
                    f"{selector} took {json.dumps(wanted[0], ensure_ascii=False)} and takes one option:"
                    f" {', '.join(wanted[k:])} not selected",
                    "select one option per call",
                )
            await _opener(page, selector, target, now, name)()
        if not kind.get("shown"):
            await _close(page, held)

    outcome = await perform(call, f"selecting in {selector}", choose_each, asked=asked)
    now = "" if kind.get("shown") else await _shown(held)  # a list shown whole has no one value to show
    await held.dispose()
    return outcome.report(f"Selected {', '.join(wanted)} in {selector}{now}")


def _takes_several(kind: dict[str, Any]) -> bool:
    """Whether a box may take several options: a list shown whole only when it says so; a dropdown is
    found out by its first pick (a box of several keeps its list open, or shows no one value)."""
    return not kind.get("shown") or bool(kind.get("several"))


async def _shows_one(held: ElementHandle, first: str) -> bool:
    """Whether the dropdown shows the one option chosen first as its value: a box of one option."""
    return (await _shown(held)).casefold() == f": now {json.dumps(first, ensure_ascii=False)}".casefold()


async def _close(page: Page, box: ElementHandle) -> None:
    """A list that stays open once its option is picked (a box that takes several) covers what is
    under it, and may hide the rest of the page from the accessibility tree: left as a person leaves
    it, by moving on from the box, else by Escape. A box gone with its page (a pick that navigates)
    is left."""
    try:
        if not await box.evaluate(_OPEN_JS):
            return
        await box.evaluate("e => { const f = document.activeElement; if (f && e.contains(f)) f.blur(); }")
        await asyncio.sleep(_POLL_S)
        if await box.evaluate(_OPEN_JS):
            await page.keyboard.press("Escape")
    except PlaywrightError:
        return


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


async def _kind(selector: str, target: Locator | ElementHandle) -> dict[str, Any]:
    kind = await target.evaluate(_KIND_JS)
    if kind is None:
        raise PageError(
            f"{selector} is not a <select> or a dropdown",
            "select does not open a link, a submit button or a field as a menu:"
            " `browse click` or `browse fill` it",
        )
    return dict(kind)


def _opener(
    page: Page, selector: str, target: Locator, kind: dict[str, Any], name: str
) -> Callable[[], Awaitable[None]]:
    """Open the dropdown (not when its list is already shown: a click would close it, or land on the
    list's middle), then click its item `name`."""
    roles = options.roles_of(str(kind["popup"]))
    controls = str(kind.get("controls") or "")
    scope: Page | Locator = target if kind.get("shown") else page
    if controls:
        scope = page.locator(f"[id={json.dumps(controls)}]")

    async def open_and_choose() -> None:
        revealed = options.Revealed(page, name)
        await revealed.start()
        clicked = ""
        try:
            if not kind.get("open"):
                clicked = await options.clicked_on(target) or "it"
                await target.click()
            item = await _wait_for_item(revealed, scope, roles)
            if item is None:
                raise await _no_item(page, selector, scope, roles, revealed, clicked)
            await item.click()
        finally:
            await revealed.dispose()

    return open_and_choose


async def _wait_for_item(
    revealed: options.Revealed, scope: Page | Locator, roles: tuple[str, ...]
) -> Locator | None:
    """The item once it shows: a dropdown's list may fill in a moment after it opens; a list that
    shows other options for a moment and not this one does not have it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + OPEN_WAIT_MS / 1000
    listed = options.any_role(scope, roles)
    while True:
        item = await revealed.item(scope, roles)
        if item is not None or loop.time() >= deadline:
            return item
        if scope is not revealed.page and await listed.count():  # its own list shows, without it
            deadline = min(deadline, loop.time() + LISTED_WAIT_MS / 1000)
        await asyncio.sleep(_POLL_S)


async def _no_item(
    page: Page,
    selector: str,
    scope: Page | Locator,
    roles: tuple[str, ...],
    revealed: options.Revealed,
    clicked: str,
) -> PageError:
    """The error for an item not found: what the list holds, or what the click made appear, and
    what was clicked; a list the click opened is closed again."""
    # a list of its own (shown, or named by aria-controls) is listed whole; else what the click revealed
    names = await options.names_in(scope, roles) if scope is not page else []
    appeared = [] if names else await revealed.appeared()
    if clicked:
        await page.keyboard.press("Escape")
    on = json.dumps(clicked, ensure_ascii=False)
    did = f" (select clicked {selector} once, on {on})" if clicked else ""
    wanted = json.dumps(revealed.name, ensure_ascii=False)
    if names:
        return PageError(f"{selector} has no option {wanted}{did}", f"its options are: {', '.join(names)}")
    if appeared:
        return PageError(
            f"{selector} showed no option {wanted}{did}", f"what appeared: {', '.join(appeared)}"
        )
    return PageError(
        f"{selector} showed no options when clicked{did}",
        "look at it with `browse snapshot -i`: it may need text typed first (`browse type`)",
    )


async def pick_typed(page: Page, name: str, revealed: options.Revealed) -> str:
    """After text was typed into a combobox (`revealed` started before): click the option its list
    shows by that very name, else its item for a new value ('Add tag "status"'). What was clicked:
    "option", "new", or "" for nothing.

    A select drawn as a field (Streamlit's, BaseWeb's) keeps only a chosen option: what was typed
    filters the list and goes. A field that takes free text keeps the text when no option is named so.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TYPED_WAIT_MS / 1000
    while True:
        option = await options.named(page, ("option",), name) or await revealed.shown_new()
        if option is not None:
            await option.click()
            return "option"
        create = await revealed.create_item()
        if create is not None:
            await create.click()
            return "new"
        if loop.time() >= deadline:
            return ""
        await asyncio.sleep(_POLL_S)


async def _shown(target: ElementHandle) -> str:
    """`: now "X"`, what the dropdown shows once chosen; empty when it cannot be read (it went)."""
    try:
        shown = await asyncio.wait_for(target.evaluate(_VALUE_JS), 1.0)
    except (PlaywrightError, TimeoutError):
        return ""
    return f": now {json.dumps(shown, ensure_ascii=False)}" if shown else ""
