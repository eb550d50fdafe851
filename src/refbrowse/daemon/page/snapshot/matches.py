"""The elements a CSS or text selector matches, each with a ref: what an ambiguous selector's error lists.

An element is found in a fresh snapshot by its box; one that no view lists (a
paragraph that holds the words of `text=…`) gets a ref as `find` gives one.
"""

from __future__ import annotations

import json

from playwright.async_api import FloatRect, Locator

from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.snapshot import huge_page
from refbrowse.daemon.page.snapshot.prepared import look
from refbrowse.daemon.page.snapshot.roles import shorten, text_of
from refbrowse.daemon.page.snapshot.service import take_snapshot
from refbrowse.daemon.page.snapshot.tree import Box, Node
from refbrowse.errors import BrowseError


class PageTooBig(BrowseError):
    """A page past a whole snapshot's bound: its matches are not looked up by snapshot."""


async def refs_of(tab: Tab, locator: Locator, limit: int) -> list[str]:
    """`@e12 listitem "Krissie"` for each of the first `limit` elements `locator` matches; none on a page
    too big for a whole snapshot (the caller says how to tell them apart instead)."""
    if (await look(tab)).elements > huge_page.FULL_SNAPSHOT_ELEMENTS:
        raise PageTooBig("too many elements to look the matches up")
    boxes: list[Box | None] = []
    for index in range(limit):
        box = await locator.nth(index).bounding_box(timeout=1_000) if index < await locator.count() else None
        if box is None and index >= await locator.count():
            break
        boxes.append(None if box is None else _rounded(box))
    taken = await take_snapshot(tab)
    by_box: dict[Box, Node] = {}
    for node in taken.tree.walk():
        if node.box is not None and not node.in_frame and (node.pw_ref or node.short_ref):
            by_box[node.box] = node  # the innermost of a box comes last
    return [_line(tab, taken.triage.document, _at(by_box, box) if box else None) for box in boxes]


def _at(by_box: dict[Box, Node], box: Box) -> Node | None:
    """The node of `box`, allowing for a pixel of rounding either way."""
    found = by_box.get(box)
    if found is not None:
        return found
    near = [n for b, n in by_box.items() if all(abs(p - q) <= 1 for p, q in zip(b, box, strict=True))]
    return near[-1] if near else None


def _rounded(box: FloatRect) -> Box:
    return (round(box["x"]), round(box["y"]), round(box["width"]), round(box["height"]))


def _line(tab: Tab, document: str, node: Node | None) -> str:
    if node is None:
        return "- (not in view, or not in the snapshot)"
    ref = node.short_ref or str(
        tab.refs.give_found(document, node.pw_ref, node.aria_role or node.role, node.name, node.in_frame)
    )
    name = node.name or node.called or text_of(node, 60)
    said = f" {json.dumps(shorten(name, 60), ensure_ascii=False)}" if name else ""
    return f"- {ref} {node.role}{said}"
