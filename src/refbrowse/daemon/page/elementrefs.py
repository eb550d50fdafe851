"""The ref of an element the agent did not pick (an audit finding, a changed box): from a snapshot.

Refs are minted only by the snapshot service (`snapshot/service.take_snapshot`); this
module finds, in a snapshot just taken, the node that is a given element, or
else the nearest node that holds it. A node's `[box=…]` only points at
candidates: each is asked the DOM whether it is the element or holds it, so two
elements that share a box are never confused.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from playwright.async_api import ElementHandle
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.tree import Box, Node

_BOXES_JS = script("element_boxes")
_MATCH_JS = script("ref_match")


@dataclass(frozen=True, slots=True)
class ElementRef:
    ref: str  # "@e4"; "" when no node of the snapshot is or holds the element
    exact: bool  # the node is the element itself, not one that holds it
    role: str = ""
    name: str = ""

    def describe(self) -> str:
        """`@e4 button "Save"`, `in @e2 link "Home"`, or "" when there is no ref."""
        if not self.ref:
            return ""
        what = f'{self.role} "{self.name}"' if self.name else self.role
        return f"{self.ref} {what}" if self.exact else f"in {self.ref} {what}"


NO_REF = ElementRef("", False)


def by_box(snapshot: PageSnapshot) -> dict[Box, list[Node]]:
    """The snapshot's nodes that carry one of our refs, by their box (frames' shifted into the page's)."""
    table: dict[Box, list[Node]] = defaultdict(list)
    for node in snapshot.tree.walk():
        if node.short_ref and node.box is not None and node.pw_ref:
            table[node.box].append(node)
    return table


def as_ref(node: Node, exact: bool) -> ElementRef:
    return ElementRef(node.short_ref, exact, node.role, node.name[:60])


async def ref_of(
    tab: Tab, table: dict[Box, list[Node]], element: ElementHandle, origin: tuple[int, int] | None = None
) -> ElementRef:
    """The element's ref, or its nearest holder's, or `NO_REF`. An element of a frame needs the
    frame's `origin`: where the snapshot shifted that frame's boxes (its iframe node's corner)."""
    found, exact = await node_of(tab, table, element, origin)
    return as_ref(found, exact) if found is not None else NO_REF


async def node_of(
    tab: Tab, table: dict[Box, list[Node]], element: ElementHandle, origin: tuple[int, int] | None = None
) -> tuple[Node | None, bool]:
    """The snapshot node that is the element (True) or holds it nearest (False); None if none does."""
    try:
        boxes = [tuple(box) for box in await element.evaluate(_BOXES_JS)]
    except PlaywrightError:
        return None, False  # the element went away
    dx, dy = origin or (0, 0)
    for x, y, w, h in boxes:
        box = (x + dx, y + dy, w, h)
        for node in table.get(box) or _near(table, box):
            if node.in_frame != (origin is not None) or (origin is not None and node.origin != origin):
                continue  # a node of another document: never this element, nor its holder
            how = await _match(tab, node, element)
            if how:
                return node, how == 2
    return None, False


def _near(table: dict[Box, list[Node]], box: tuple[int, ...]) -> list[Node]:
    """The nodes whose box is `box` give or take a pixel: the snapshot and the page round apart."""
    return [
        n
        for key, nodes in table.items()
        if all(abs(a - b) <= 1 for a, b in zip(key, box, strict=False))
        for n in nodes
    ]


async def _match(tab: Tab, node: Node, element: ElementHandle) -> int:
    try:
        return int(await tab.page.get_by_ref(node.pw_ref).evaluate(_MATCH_JS, element, timeout=1_000))
    except PlaywrightError:
        return 0
