"""A ref as a Playwright locator a person would write: by label, by role and name, or by text.

`locator @eN` and recorded tests both come from here. On a page that still
shows the element, each way is tried in turn and kept only when it finds that
one element and no other; a ref whose page has gone (a click that navigated)
is written from what the snapshot said: its role and name, with `.nth(i)`
when the snapshot showed others like it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from refbrowse.daemon.core.sessions.refs import RefMap, RefTarget, parse_ref

LABELLED = frozenset(
    ("textbox", "searchbox", "combobox", "spinbutton", "slider", "checkbox", "radio", "switch")
)
_SAME_JS = "(el, other) => el === other"


def q(text: str) -> str:
    """A Python string literal (JSON's escapes are Python's).

    A lone surrogate (a byte of argv that is not UTF-8) is written as its
    `\\udcXX` escape: the file is UTF-8, which cannot hold one.
    """
    return json.dumps(text, ensure_ascii=False).encode("utf-8", "backslashreplace").decode("utf-8")


def plain(text: str) -> str:
    """`text` as it may stand in a comment or a docstring: one line, no quote, no backslash left to act.

    Backslashes and double quotes are escaped, and every character that is not
    printable (line breaks of any kind, controls, a lone surrogate) is written
    as its escape, so nothing the page or the caller chose can end the comment
    or the docstring; printable letters of any script stay as they are.
    """
    return "".join(_PLAIN.get(ch) or (ch if ch.isprintable() else _escaped(ch)) for ch in text)


_PLAIN = {"\\": "\\\\", '"': '\\"'}


def _escaped(ch: str) -> str:
    return ch.encode("unicode_escape").decode("ascii")


@dataclass(frozen=True, slots=True)
class Way:
    """One way to find an element: as Python source, and how to build it on a live page."""

    method: str  # get_by_label, get_by_role, get_by_text, locator
    first: str
    name: str = ""

    def source(self, nth: int | None = None) -> str:
        if self.method == "get_by_role":
            named = f", name={q(self.name)}, exact=True" if self.name else ""
            text = f"page.get_by_role({q(self.first)}{named})"
        elif self.method == "locator":
            text = f"page.locator({q(self.first)})"
        else:
            text = f"page.{self.method}({q(self.first)}, exact=True)"
        return text + (f".nth({nth})" if nth is not None else "")

    def build(self, page: Page) -> Locator:
        if self.method == "get_by_role":
            role: Any = self.first  # an ARIA role from the snapshot; Playwright types roles as a Literal
            return page.get_by_role(role, name=self.name or None, exact=True)
        if self.method == "get_by_label":
            return page.get_by_label(self.first, exact=True)
        if self.method == "get_by_text":
            return page.get_by_text(self.first, exact=True)
        return page.locator(self.first)


def ways(target: RefTarget) -> list[Way]:
    """The ways to find a ref's element, the most readable first."""
    if target.ref.kind == "c":  # a clickable outside the accessibility tree: its tag and text
        return [Way("get_by_text", target.name)] if target.name else [Way("locator", target.role)]
    found = [Way("get_by_label", target.name)] if target.name and target.role in LABELLED else []
    found.append(Way("get_by_role", target.role, target.name))
    if target.name and target.role not in LABELLED:
        found.append(Way("get_by_text", target.name))
    return found


async def live_source(page: Page, target: RefTarget, element: Locator) -> str:
    """The first way that finds exactly `element` on the page; else role and name with its index."""
    handle = await element.element_handle()
    try:
        candidates = ways(target)
        for way in candidates:
            if await _finds_only(way.build(page), handle):
                return way.source()
        fallback = candidates[-1] if target.ref.kind == "c" else Way("get_by_role", target.role, target.name)
        matches = await fallback.build(page).element_handles()
        for index, match in enumerate(matches):
            if await match.evaluate(_SAME_JS, handle):
                return fallback.source(index)
        return fallback.source()
    finally:
        await handle.dispose()


async def _finds_only(locator: Locator, handle: Any) -> bool:
    try:
        return await locator.count() == 1 and bool(await locator.evaluate(_SAME_JS, handle))
    except PlaywrightError:
        return False


def remembered_source(refs: RefMap, target: RefTarget) -> str:
    """Role and name as the snapshot showed them, for an element whose page has gone."""
    if target.ref.kind == "c":
        return ways(target)[0].source()
    alike = refs.alike(target)
    way = Way("get_by_role", target.role, target.name)
    return way.source(alike.index(target) if len(alike) > 1 and target in alike else None)


def css_source(selector: str) -> str:
    return Way("locator", selector).source()


def is_ref(selector: str) -> bool:
    return parse_ref(selector) is not None
