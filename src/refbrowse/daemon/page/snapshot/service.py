"""The one snapshot service: every consumer (the `snapshot` command, annotated
screenshots, the dashboard) gets the page from `take_snapshot`.

`take_snapshot` always takes Playwright's ai snapshot of the whole page (a scoped ai
snapshot would invalidate every ref outside its scope), parses it, gives refs
(`@eN`) to the nodes worth acting on or reading, and triages the page. Scoping
to a selector happens afterwards, on the parsed tree (`scope`).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from playwright.async_api import ElementHandle
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.runtime import heap
from refbrowse.daemon.core.sessions.refs import Ref, parse_ref
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.snapshot.clickables import Clickable, find_clickables, known_to_ai_mode
from refbrowse.daemon.page.snapshot.hints import near, structured_name
from refbrowse.daemon.page.snapshot.order import by_screen
from refbrowse.daemon.page.snapshot.parse import parse_nodes
from refbrowse.daemon.page.snapshot.prepared import Reading, read
from refbrowse.daemon.page.snapshot.reach import place
from refbrowse.daemon.page.snapshot.roles import (
    VALUE_ROLES,
    drop_hidden_copies,
    drop_unspoken,
    referable,
    shorten,
    text_of,
)
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.snapshot.triage import Triage
from refbrowse.errors import ElementNotFound, UsageError

_FIND_MS = 2_000  # the element is known to exist: this only bounds reading its box
_CHOSEN_ROLES = ("combobox", "spinbutton", "slider", "slider handle")  # a value one chose, not typed words
_QUOTE = json.JSONEncoder(ensure_ascii=False).encode


@dataclass(frozen=True, slots=True)
class PageSnapshot:
    """One whole-page snapshot: the tree (nodes carry `short_ref`), triage, and `-C` finds."""

    tree: Node
    triage: Triage
    clickables: tuple[tuple[Ref, Clickable], ...] = ()
    # id of an unnamed node given a ref → its words (`text_of(node, 80)`), worked out once: the view names
    # the node by them again (a docs page's thousand unnamed links)
    said: dict[int, str] = field(default_factory=dict, compare=False)

    def nodes_by_ref(self) -> dict[str, Node]:
        return {node.short_ref: node for node in self.tree.walk() if node.short_ref}


async def take_snapshot(
    tab: Tab,
    *,
    clickables: bool = False,
    unnamed: bool = False,
    reading: Reading | None = None,
    timeout_ms: float | None = None,
) -> PageSnapshot:
    """Snapshot the whole page of `tab` and refresh its refs.

    `reading` is a prepared reading of the page still current (see
    `prepared`); without one the page is read now. With `clickables`, `-C`
    finds come too; those with no text and no name only with `unnamed`
    (`-C --all`): an agent cannot tell one from another. `timeout_ms` bounds
    reading a big page (default: the action timeout).
    """
    reading = reading or await read(tab, timeout_ms)
    facts = reading.facts
    with heap.paused():  # a big page's tree is tens of thousands of objects at once
        tree, read_nodes = parse_nodes(reading.aria)  # what follows until `place` needs no walk
        apply_marks(read_nodes, facts)
        in_order = not by_screen(read_nodes)  # else the nodes read are no longer in document order
        added = place(tree, facts.reach, read_nodes if in_order else None)
        if any("aria-hidden" in node.attrs for node in read_nodes):  # `place` adds none
            drop_unspoken(tree)
            drop_hidden_copies(tree)
        named = _named(tree, tab, facts.document)
        tab.refs.begin(facts.document, frozenset(node.pw_ref for node, _ in named))
        words: dict[int, str] = {}
        for node, muted in named:
            role = node.aria_role or node.role
            given = (node.pw_ref, role, node.name, node.in_frame, _states(node), node.box, muted)
            said, told = _unnamed(node, words)
            node.short_ref = str(tab.refs.give(facts.document, *given, said=said, told=told))
        for node, scanned in added:
            given_reached = (scanned.id, scanned.role, scanned.name, scanned.box)
            node.short_ref = str(tab.refs.give_reached(facts.document, *given_reached))
    extra = await _clickables(tab, tree, facts.document, unnamed) if clickables else ()
    return PageSnapshot(tree, facts, extra, words)


def _unnamed(node: Node, words: dict[int, str]) -> tuple[str, str]:
    """What messages about an unnamed node's ref call it: the words it shows (kept in `words`, the view
    names it by them again); a field as the view tells it apart (its label, the text near it, a
    select's choice), never by its words: a select's are all its options, a text box's what was typed."""
    if node.name:
        return "", ""
    if node.role in VALUE_ROLES:
        said = node.called or structured_name(node)
        hint = "" if said else near(node)
        if said or hint:
            return said, f"(near {_QUOTE(hint)})" if hint else ""
        shows = _chosen(node) if node.role in _CHOSEN_ROLES else ""
        return "", f": {_QUOTE(shorten(shows, 40))}" if shows else ""
    if not node.called:
        words[id(node)] = text_of(node, 80)
    return node.called or words[id(node)], ""


def _chosen(node: Node) -> str:
    """A select's chosen options (its value when the tree gives one), a slider's or spin button's value."""
    if node.value is not None or node.role != "combobox":
        return node.value or ""
    return ", ".join(c.name for c in node.walk() if c.role == "option" and "selected" in c.attrs)


def _named(tree: Node, tab: Tab, document: str) -> list[tuple[Node, bool]]:
    """The nodes to give refs, in document order, with whether each is inside an aria-hidden part of
    the page; a wrapper that an earlier `snapshot -C` of the document found clickable is clickable
    again, and an element `find` gave a ref keeps it."""
    promoted = tab.refs.promoted_in(document)
    found = tab.refs.found_in(document)
    muted: set[int] = set()  # ids of the nodes inside an aria-hidden part: few, and a parent comes first
    out = []
    for node in tree.walk():
        if promoted and node.pw_ref in promoted:
            node.pointer, node.marks = True, node.marks | promoted[node.pw_ref]
        hidden = "aria-hidden" in node.attrs or (bool(muted) and id(node.parent) in muted)
        if hidden:
            muted.add(id(node))
        # A node's own promotion comes first; what makes it referable reads its ancestors' (done)
        # and its descendants' roles, which promotion leaves alone.
        if referable(node) or (found and node.pw_ref in found):
            out.append((node, hidden))
    return out


def _states(node: Node) -> tuple[str, ...]:
    """What the snapshot says of a node besides its role and name: `checked`, `level=2`, `required`."""
    if not node.attrs and not node.marks:
        return ()
    shown = [key if value == "true" else f"{key}={value}" for key, value in node.attrs.items()]
    return tuple(shown + sorted(node.marks))


def apply_marks(nodes: list[Node], facts: Triage) -> None:
    """Give the nodes (the whole tree, in document order) the DOM facts triage found for the element
    with the same box."""
    if not facts.marks:
        return
    # Wrappers often share their control's box: the facts go to the innermost node of a box.
    wanted = facts.marks.keys()  # a few boxes of a page's thousands: only those are kept
    by_box = {node.box: node for node in nodes if node.box in wanted and not node.in_frame}
    for box, (marks, note) in facts.marks.items():
        node = by_box.get(box)
        if node is not None:
            if "valued" in marks:  # a slider's value in words, or a drawn one's, which the snapshot lacks
                node.value = note
                marks, note = marks - {"valued"}, ""
            node.marks, node.note = marks, note
            if node.role == "iframe" and note and not node.name:
                node.name = note


def history_kind(flags: dict[str, object], raw: bool) -> str:
    """The key under which `snapshot -D` keeps a tab's previous snapshot of one view."""
    kind = " ".join(f"{flag}={flags.get(flag)}" for flag in ("-i", "-c", "-d", "-s", "-C", "--all"))
    return kind + f" raw={raw}"  # --raw adds the url line, which is not a change in the page


class SnapshotHistory:
    """The previous snapshot text of one tab, per view, with the document it showed: for `-D`."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[str, str]] = {}

    def flags_taken(self, document: str) -> list[str]:
        """The view flags (`-i`, `-i -c`…) of the snapshots kept of `document`, as typed."""
        out = []
        for kind, (seen, _) in self._last.items():
            pairs = (part.split("=", 1) for part in kind.split() if not part.startswith("raw="))
            flags = " ".join(
                flag if value == "True" else f"{flag} {value}"
                for flag, value in pairs
                if value not in ("None", "False")
            )
            if seen == document:
                out.append(flags)
        return out

    def swap(self, kind: str, document: str, text: str) -> tuple[str, str] | None:
        """Remember `text`; return the previous (document, text) of this kind, if any."""
        previous = self._last.get(kind)
        self._last[kind] = (document, text)
        return previous


async def _clickables(
    tab: Tab, tree: Node, document: str, unnamed: bool
) -> tuple[tuple[Ref, Clickable], ...]:
    for target in tab.refs.live():
        if target.handle is not None:
            await target.handle.dispose()
    found = await find_clickables(tab.page)
    known, missed = known_to_ai_mode(tree, found)
    missed = [c for c in missed if c.text or unnamed]
    for node in known:
        node.pointer = True  # clickable, though ai mode shows it as a plain wrapper
        node.short_ref = str(tab.refs.give(document, node.pw_ref, node.aria_role or node.role, node.name))
        tab.refs.promote(document, node.pw_ref, node.marks & {"draggable"})
    for clickable in found:
        if clickable not in missed:
            await clickable.handle.dispose()
    refs = tab.refs.give_clickables([(c.handle, c.tag, c.text) for c in missed])
    return tuple(zip(refs, missed, strict=True))


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


_COMPOSED_CONTAINS = script("composed_contains")

# Boxes of the scope element and everything inside it in the flat tree: shadow roots and slotted elements.
_INNER_BOXES_JS = script("inner_boxes")


async def _scope_css(tab: Tab, tree: Node, selector: str) -> list[Node]:
    """Scoping is by DOM containment, never by area: a dialog that covers the page holds only its own."""
    locator = tab.page.locator(selector).first
    try:
        handle = await locator.element_handle(timeout=_FIND_MS) if await locator.count() else None
        inner = await handle.evaluate(_INNER_BOXES_JS) if handle else []
    except PlaywrightError as exc:
        raise translate(exc, f"finding {selector!r}") from exc
    if handle is None:
        raise ElementNotFound(
            f"no element matches {selector!r} on {tab.page.url}",
            "check the selector, or run `browse snapshot -i` and scope to a ref: -s @eN",
        )
    boxes = {tuple(int(part) for part in str(box).split(",")) for box in inner}
    try:
        return await _inside(tab, tree, boxes, handle)
    finally:
        await handle.dispose()


async def _inside(tab: Tab, tree: Node, boxes: set[tuple[int, ...]], handle: ElementHandle) -> list[Node]:
    """The topmost nodes under `tree` whose element is the scope element or lies inside it, in order.

    A box only points at candidates: each is asked the DOM whether it is inside, a level of the
    tree at a time, so an element outside that shares a box with one inside is never taken.
    """
    order = {id(node): at for at, node in enumerate(tree.walk())}
    out: list[Node] = []
    level = _element_children(tree)
    while level:
        candidates = [node for node in level if node.box in boxes and node.pw_ref]
        verdicts = await asyncio.gather(*(_contained(tab, node, handle) for node in candidates))
        taken = {id(node) for node, inside in zip(candidates, verdicts, strict=True) if inside}
        out += [node for node in level if id(node) in taken]
        level = [child for node in level if id(node) not in taken for child in _element_children(node)]
    return sorted(out, key=lambda node: order[id(node)])


def _element_children(node: Node) -> list[Node]:
    return [child for child in node.children if isinstance(child, Node) and not child.in_frame]


async def _contained(tab: Tab, node: Node, handle: ElementHandle) -> bool:
    try:
        inside = await tab.page.get_by_ref(node.pw_ref).evaluate(_COMPOSED_CONTAINS, handle)
    except PlaywrightError:
        return False
    return bool(inside)


async def scope_clickables(tab: Tab, snapshot: PageSnapshot, selector: str) -> PageSnapshot:
    """`-C` with `-s`: only the clickables inside the scope element."""
    ref = parse_ref(selector)
    if ref is not None:
        node = snapshot.nodes_by_ref().get(str(ref))
        scope_at = tab.page.get_by_ref(node.pw_ref) if node is not None else None
    else:
        scope_at = tab.page.locator(selector).first
    if scope_at is None or not snapshot.clickables:
        return snapshot
    try:
        handle = await scope_at.element_handle(timeout=_FIND_MS)
        inside = [await c.handle.evaluate(_COMPOSED_CONTAINS, handle) for _, c in snapshot.clickables]
    except PlaywrightError as exc:
        raise translate(exc, f"finding {selector!r}") from exc
    kept = tuple(pair for pair, keep in zip(snapshot.clickables, inside, strict=True) if keep)
    return PageSnapshot(snapshot.tree, snapshot.triage, kept, snapshot.said)
