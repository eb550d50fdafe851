"""The one snapshot service: every consumer (the `snapshot` command, annotated
screenshots, the dashboard) gets the page from `capture`.

`capture` always takes Playwright's ai snapshot of the whole page (a scoped ai
snapshot would invalidate every ref outside its scope), parses it, gives refs
(`@eN`) to the nodes worth acting on or reading, and triages the page. Scoping
to a selector happens afterwards, on the parsed tree (`scope`).
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import ElementHandle, Locator
from playwright.async_api import Error as PlaywrightError

from refbrowse.errors import ElementNotFound, UsageError
from refbrowse.pwerrors import translate
from refbrowse.refs import Ref, parse_ref
from refbrowse.session import Tab
from refbrowse.snapshot.clickables import Clickable, find_clickables, known_to_ai_mode
from refbrowse.snapshot.parse import Box, Node, parse_snapshot
from refbrowse.snapshot.roles import referable
from refbrowse.snapshot.triage import Triage, triage

_FIND_MS = 2_000  # the element is known to exist: this only bounds reading its box
_VERIFY_LIMIT = 40  # scope candidates checked against the DOM one by one; beyond, boxes decide


@dataclass(frozen=True, slots=True)
class PageSnapshot:
    """One whole-page snapshot: the tree (nodes carry `short_ref`), triage, and `-C` finds."""

    tree: Node
    triage: Triage
    clickables: tuple[tuple[Ref, Clickable], ...] = ()

    def nodes_by_ref(self) -> dict[str, Node]:
        return {node.short_ref: node for node in self.tree.walk() if node.short_ref}


async def capture(tab: Tab, *, clickables: bool = False) -> PageSnapshot:
    """Snapshot the whole page of `tab` and refresh its refs."""
    try:
        facts = await triage(tab.page)
        raw = await tab.page.aria_snapshot(mode="ai", boxes=True)
    except PlaywrightError as exc:
        raise translate(exc, f"taking a snapshot of {tab.page.url}") from exc
    tree = parse_snapshot(raw)
    tab.refs.begin()
    for node in tree.walk():
        if referable(node):
            ref = tab.refs.give(facts.document, node.pw_ref, node.role, node.name, node.in_frame)
            node.short_ref = str(ref)
    found = await _clickables(tab, tree, facts.document) if clickables else ()
    return PageSnapshot(tree, facts, found)


async def _clickables(tab: Tab, tree: Node, document: str) -> tuple[tuple[Ref, Clickable], ...]:
    for target in tab.refs.live():
        if target.handle is not None:
            await target.handle.dispose()
    found = await find_clickables(tab.page)
    known, missed = known_to_ai_mode(tree, found)
    for node in known:
        node.pointer = True  # clickable, though ai mode shows it as a plain wrapper
        node.short_ref = str(tab.refs.give(document, node.pw_ref, node.role, node.name))
    for clickable in found:
        if clickable not in missed:
            await clickable.handle.dispose()
    refs = tab.refs.give_clickables([(c.handle, c.tag, c.text) for c in missed])
    return tuple(zip(refs, missed, strict=True))


def ref_locators(tab: Tab, snapshot: PageSnapshot) -> dict[str, Locator]:
    """`@eN` → the Playwright locator of that element, for tools that draw or act on refs."""
    return {ref: tab.page.get_by_ref(node.pw_ref) for ref, node in snapshot.nodes_by_ref().items()}


async def scope(tab: Tab, snapshot: PageSnapshot, selector: str) -> list[Node]:
    """The nodes of `snapshot` inside the element `selector` names (`-s`)."""
    ref = parse_ref(selector)
    if ref is not None:
        if ref.kind == "c":
            raise UsageError("-s takes a CSS selector or an @e ref", "for example: snapshot -s main")
        tab.refs.target(ref)  # a stale ref fails here, saying what it was
        node = snapshot.nodes_by_ref().get(str(ref))
        if node is None:
            raise ElementNotFound(f"{ref} is not in this snapshot", "run `browse snapshot -i`")
        return [node]
    return await _scope_css(tab, snapshot.tree, selector)


async def _scope_css(tab: Tab, tree: Node, selector: str) -> list[Node]:
    locator = tab.page.locator(selector).first
    try:
        present = await locator.count() > 0
        box = await locator.bounding_box(timeout=_FIND_MS) if present else None
        handle = await locator.element_handle(timeout=_FIND_MS) if box else None
    except PlaywrightError as exc:
        raise translate(exc, f"finding {selector!r}") from exc
    if box is None or handle is None:
        raise ElementNotFound(
            f"no visible element matches {selector!r} on {tab.page.url}",
            "check the selector, or run `browse snapshot -i` and scope to a ref: -s @eN",
        )
    area = (box["x"], box["y"], box["width"], box["height"])
    try:
        return await _inside(tab, tree, area, handle, [0])
    finally:
        await handle.dispose()


async def _inside(
    tab: Tab, node: Node, area: tuple[float, float, float, float], handle: ElementHandle, checks: list[int]
) -> list[Node]:
    """The topmost nodes under `node` whose element lies inside the scope element."""
    out: list[Node] = []
    for child in node.children:
        if not isinstance(child, Node) or child.in_frame:
            continue
        if child.box and _within(child.box, area) and await _contained(tab, child, handle, checks):
            out.append(child)
        else:
            out.extend(await _inside(tab, child, area, handle, checks))
    return out


def _within(box: Box, area: tuple[float, float, float, float]) -> bool:
    x, y, w, h = box
    ax, ay, aw, ah = area
    return x >= ax - 1 and y >= ay - 1 and x + w <= ax + aw + 1 and y + h <= ay + ah + 1


async def _contained(tab: Tab, node: Node, handle: ElementHandle, checks: list[int]) -> bool:
    if not node.pw_ref or checks[0] >= _VERIFY_LIMIT:
        return True
    checks[0] += 1
    try:
        inside = await tab.page.get_by_ref(node.pw_ref).evaluate("(e, t) => t.contains(e)", handle)
    except PlaywrightError:
        return False
    return bool(inside)
