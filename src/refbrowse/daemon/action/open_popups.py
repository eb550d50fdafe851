"""Pickers, lists and menus left open over the page by an action, and how to close them.

A date picker that stays open after its day is clicked covers the form's
Submit button; a report that does not say so sends the agent into a "covered
by" error. `remember` notes what floats open before the action, `report` says
after it what is still open (open before too), and, after `fill` or `type`,
what the typing opened (a calendar on focus, a typeahead's list), with the way
to close it. Page words (the picker's name) are quoted, so fenced.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.action.report import Outcome, quote
from refbrowse.daemon.core.devtools.scripts import script

_OPEN_JS = script("open_popups")
_LOOK_MS = 1_000  # a look that takes longer is skipped: the report goes on without it
# actions whose popups are news even when the action opened them: their purpose was a value, not a popup
_TYPING = ("fill", "type")
_WHAT = {"calendar": "a calendar", "menu": "a menu", "list": "a list", "dialog": "a panel"}
_ITEMS = {"menu": "item", "list": "option"}


async def remember(page: Page) -> bool:
    """Note what floats open now; False when the page could not say (nothing is said after)."""
    try:
        await page.main_frame.evaluate(_OPEN_JS, "before")
    except PlaywrightError:
        return False
    return True


async def report(page: Page, command: str, out: Outcome, *, escaped: bool) -> None:
    """The lines for popups open after the action that the agent may need to close (`escaped`: the
    action was Escape, which left them open)."""
    try:
        found: list[dict[str, Any]] = await page.main_frame.evaluate(_OPEN_JS, "after")
    except PlaywrightError:
        return
    said = [one for one in found if one["was"] or command in _TYPING]
    for one in said:
        out.quoted.append(_line(one, escaped))
    out.add("open", *({"kind": one["kind"], "name": one["name"], "was_open": one["was"]} for one in said))


def _line(popup: dict[str, Any], escaped: bool) -> str:
    named = _named(popup)
    if not popup["was"]:
        return f"open now: {named} over the page; pick in it, or close it with `browse press Escape`"
    if escaped:
        return f"still open: {named}; to close it, click outside it (a heading, or empty space)"
    return f"still open: {named} over the page; close it with `browse press Escape` or a click outside it"


def _named(popup: dict[str, Any]) -> str:
    """`a calendar "June 2024"`, `a list "Cities"`, `a menu of 5 items`."""
    kind = str(popup["kind"])
    what = _WHAT.get(kind, "a popup")
    if popup["name"]:
        return f"{what} {quote(str(popup['name']))}"
    count = int(popup.get("items") or 0)
    if count and kind in _ITEMS:
        return f"{what} of {count} {_ITEMS[kind]}{'s' if count != 1 else ''}"
    return what
