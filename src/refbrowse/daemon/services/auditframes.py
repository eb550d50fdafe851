"""The documents an audit covers: the page's and each frame's, same-origin or not.

axe-core audits a frame only where it is loaded itself and called from its parent
through messages; here each frame is given axe and run directly (Playwright reaches
every frame, cross-origin ones in their own process too), with the context axe
would give it (`scripts/audit_frame.js`: not the page, so page-level rules stay
with the top document). Its findings get refs from the same whole-page snapshot,
whose frame nodes are shifted by their iframe node's corner (`page/elementrefs.py`).
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import ElementHandle, Frame, JSHandle, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.elementrefs import NO_REF, ElementRef, as_ref, node_of
from refbrowse.daemon.page.snapshot.tree import Box, Node

MAX_FRAMES = 20  # frames audited besides the page; each costs a run of axe
_FRAME_JS = script("audit_frame")


@dataclass(slots=True)
class Part:
    """One document audited: the page's (`context` None) or a frame's."""

    frame: Frame
    context: dict[str, Any] | None = None
    element: ElementHandle | None = None  # the frame's iframe element, in its parent
    result: JSHandle | None = None
    origin: tuple[int, int] | None = None  # where the snapshot shifted this frame's boxes
    holder: ElementRef = NO_REF  # the iframe's own ref: the place of a finding with none nearer
    elements: list[ElementHandle | None] = field(default_factory=list)

    @property
    def url(self) -> str:
        return "" if self.context is None else self.frame.url


@dataclass(slots=True)
class Frames:
    parts: list[Part]
    left_out: int = 0  # frames past MAX_FRAMES
    skipped: list[str] = field(default_factory=list)  # "URL: why" of frames axe could not run in


async def frame_parts(page: Page, scope: ElementHandle | None) -> Frames:
    """The page and its frames inside `scope` (all when None), parents before their frames."""
    found = Frames([Part(page.main_frame)])
    taken, over = {page.main_frame}, set()
    for frame in page.frames[1:]:  # Playwright lists a frame after the one holding it
        parent = frame.parent_frame
        if parent in over:
            over.add(frame)
            found.left_out += 1
        if parent not in taken or frame.is_detached():
            continue
        try:
            element = await frame.frame_element()
            context = await element.evaluate(_FRAME_JS, scope if parent is page.main_frame else None)
        except PlaywrightError:
            continue  # gone meanwhile
        if context is None:
            await element.dispose()
        elif len(found.parts) > MAX_FRAMES:
            over.add(frame)
            found.left_out += 1
            await element.dispose()
        else:
            taken.add(frame)
            found.parts.append(Part(frame, context, element))
    return found


async def place_frames(tab: Tab, table: dict[Box, list[Node]], parts: list[Part]) -> None:
    """Each frame's origin in the snapshot and its iframe's ref, from its parent's (parents first)."""
    by_frame = {part.frame: part for part in parts}
    for part in parts:
        parent = by_frame.get(part.frame.parent_frame) if part.frame.parent_frame else None
        if part.element is None or parent is None or (parent.context is not None and parent.origin is None):
            continue
        node, exact = await node_of(tab, table, part.element, parent.origin)
        if node is not None and exact and node.box is not None:
            part.origin = node.box[:2]
        part.holder = as_ref(node, False) if node is not None else parent.holder


async def dispose(parts: list[Part]) -> None:
    for part in parts:
        for handle in (part.result, part.element):
            if handle is not None:
                with suppress(PlaywrightError):
                    await handle.dispose()
