"""`snapshot -C`: elements a page made clickable that the accessibility tree misses.

A `div` with an onclick handler, a `span` with `tabindex=0`, anything whose
cursor turns into a pointer (or, made to be dragged, a move or grab cursor) where
its parent's does not; those made to be dragged say so (`[draggable]`, `div draggable`). Elements that are
(or sit inside) real controls are left out, and so is anything ai mode already
gave a ref (matched by box). Each one is held as an element handle, so an `@c`
ref cannot drift to another element after an insertion.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import ElementHandle, Page

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.page.snapshot.tree import Box, Node

LIMIT = 200

_FIND_JS = script("clickables")

_DESCRIBE_JS = script("clickable_describe")


@dataclass(frozen=True, slots=True)
class Clickable:
    handle: ElementHandle
    tag: str
    text: str
    box: Box


async def find_clickables(page: Page) -> list[Clickable]:
    """Clickables in the main frame and its open shadow roots."""
    array = await page.evaluate_handle(_FIND_JS, LIMIT)
    try:
        described = await array.evaluate(_DESCRIBE_JS)
        properties = await array.get_properties()
    finally:
        await array.dispose()
    found: list[Clickable] = []
    for index, (tag, text, box) in enumerate(described):
        handle = properties.get(str(index))
        element = handle.as_element() if handle else None
        if element is not None:
            found.append(Clickable(element, str(tag), str(text), (box[0], box[1], box[2], box[3])))
    return found


def known_to_ai_mode(tree: Node, found: list[Clickable]) -> tuple[list[Node], list[Clickable]]:
    """Split `found` into nodes ai mode already has (same box) and clickables it missed.

    Ai mode gives a ref to many such elements but shows them as plain wrappers;
    those are promoted to clickable nodes, so they keep a stable `@e` ref.
    """
    by_box = {n.box: n for n in tree.walk() if n.pw_ref and n.box and not n.in_frame}
    known: list[Node] = []
    missed: list[Clickable] = []
    for clickable in found:
        node = by_box.get(clickable.box)
        if node is None:
            missed.append(clickable)
        elif not node.short_ref:
            known.append(node)
            # made to be dragged (a palette's item): `drag` is what acts on it
            node.marks |= {"draggable"} if clickable.tag.endswith(" draggable") else set()
    return known, missed
