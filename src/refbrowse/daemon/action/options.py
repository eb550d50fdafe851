"""The item a dropdown or menu shows by a name: found by its role, or as the element that shows the name.

`select` opens a dropdown and clicks its option; what counts as its option is
wider than one role. A menu's items may be `menuitemcheckbox` or
`menuitemradio` (a sort menu's columns); a library may keep hidden
`role=option` copies for assistive technology while the options a person sees
are plain elements. So the item is the visible one of the popup's roles with
that name (in the popup, else anywhere), else a visible element showing
exactly that name that was not shown before the click. What the click revealed
is kept too, for an error that says what did appear.
"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import JSHandle, Locator, Page

from refbrowse.daemon.core.devtools.scripts import script

ROLES = {
    "listbox": ("option",),
    "menu": ("menuitem", "menuitemcheckbox", "menuitemradio"),
    "tree": ("treeitem",),
    "radiogroup": ("radio",),
    "tablist": ("tab",),
}
_ITEMS_JS = script("menu_items")
_NEW_JS = script("new_among")
_NAMES_JS = script("option_names")
_CLICKED_JS = script("clicked_on")
_ON_TOP_JS = script("on_top")
_LISTED = 20


def roles_of(popup: str) -> tuple[str, ...]:
    return ROLES.get(popup, ("option",))


def by_role(scope: Page | Locator, role: str, **named: Any) -> Locator:
    """The elements of an ARIA role given as a word (one of ours), visible or not."""
    return scope.get_by_role(role, **named)  # type: ignore[arg-type] # Playwright types role as a literal


def any_role(scope: Page | Locator, roles: tuple[str, ...]) -> Locator:
    """The visible elements of any of `roles` in `scope`."""
    found = by_role(scope, roles[0])
    for role in roles[1:]:
        found = found.or_(by_role(scope, role))
    return found.filter(visible=True)


def creating(name: str) -> re.Pattern[str]:
    """The words of an item that makes `name` a new value: 'Add tag "status"', 'Create "status"',
    '+ New: status', 'Use "status"', '"status" (new)'."""
    quoted = rf"[\"'“”«»]?{re.escape(name.strip())}[\"'“”«»]?"
    return re.compile(
        rf"^\s*(?:\+\s*)?(?:add|create|new|use)\b[^\n]{{0,40}}?{quoted}\s*(?:\.\.\.|…)?\s*$"
        rf"|^\s*{quoted}\s*\((?:new|create)\)\s*$",
        re.IGNORECASE,
    )


class Revealed:
    """What a click or typing shows: taken before it (`start`), asked after it (`item`, `appeared`,
    `create_item`)."""

    def __init__(self, page: Page, name: str) -> None:
        self.page = page
        self.name = name
        self._texts = page.get_by_text(name.strip(), exact=True).filter(visible=True)
        self._creates = page.get_by_text(creating(name)).filter(visible=True)
        self._items: JSHandle | None = None
        self._shown: JSHandle | None = None
        self._created: JSHandle | None = None

    async def start(self) -> None:
        self._items = await self.page.evaluate_handle(_ITEMS_JS)
        self._shown = await self._now(self._texts)
        self._created = await self._now(self._creates)

    async def _now(self, found: Locator) -> JSHandle:
        shown = await found.element_handles()
        held = await self.page.evaluate_handle(_NEW_JS, shown)  # held in the page as a Set
        for handle in shown:
            await handle.dispose()
        return held

    async def create_item(self) -> Locator | None:
        """A new item that makes the name a new value ('Add tag "status"'), the innermost."""
        return await self._fresh(self._creates, self._created)

    async def item(self, scope: Page | Locator, roles: tuple[str, ...]) -> Locator | None:
        """The item named so: by role in `scope`, else by role anywhere, else a new element showing it."""
        for where in (scope, self.page) if scope is not self.page else (self.page,):
            found = await named(where, roles, self.name)
            if found is not None:
                return found
        return await self.shown_new()

    async def shown_new(self) -> Locator | None:
        """A visible element showing exactly the name that was not shown before."""
        return await self._fresh(self._texts, self._shown)

    async def _fresh(self, found: Locator, before: JSHandle | None) -> Locator | None:
        """The last of `found` not among `before`: the innermost, in a popup drawn at the body's end."""
        if before is None:
            return None
        try:
            fresh = await found.evaluate_all(_NEW_JS, before)
        except PlaywrightError:
            return None
        picks = [k for k, new in enumerate(fresh) if new]
        return found.nth(picks[-1]) if picks else None

    async def appeared(self) -> list[str]:
        """The names of the buttons, links and items the click revealed."""
        if self._items is None:
            return []
        try:
            return list(await self.page.evaluate(_ITEMS_JS, self._items))[:_LISTED]
        except PlaywrightError:
            return []

    async def dispose(self) -> None:
        for handle in (self._items, self._shown, self._created):
            if handle is not None:
                with suppress(PlaywrightError):  # its page went: nothing left to free
                    await handle.dispose()


async def named(scope: Page | Locator, roles: tuple[str, ...], name: str) -> Locator | None:
    """The item of `roles` a person sees named `name` (exactly, else the only one ignoring case and
    ends); copies kept for assistive technology, too small to see or drawn under another, are not."""
    loose = re.compile(rf"^\s*{re.escape(name.strip())}\s*$", re.IGNORECASE)
    for wanted, exact in ((name.strip(), True), (loose, False)):
        seen: list[Locator] = []
        for role in roles:
            found = by_role(scope, role, name=wanted, exact=exact).filter(visible=True)
            seen += [one for one in await found.all() if await _on_top(one)]
        if seen and (exact or len(seen) == 1):
            return seen[0]
    return None


async def _on_top(item: Locator) -> bool:
    try:
        return bool(await item.evaluate(_ON_TOP_JS, timeout=1_000))
    except PlaywrightError:
        return False


async def names_in(scope: Page | Locator, roles: tuple[str, ...]) -> list[str]:
    """The names of the visible items of `roles` in `scope`, as a person reads them."""
    try:
        return list(await any_role(scope, roles).evaluate_all(_NAMES_JS))[:_LISTED]
    except PlaywrightError:
        return []


async def clicked_on(target: Locator) -> str:
    """What a click at `target`'s middle lands on, in words (`"Sort: Created"`), or ''."""
    try:
        return str(await target.evaluate(_CLICKED_JS, timeout=1_000))
    except PlaywrightError:
        return ""
