"""Reach: what a person could act on that the accessibility tree does not call a control.

Pages built the old way make controls of plain elements and listeners: a
datepicker's Prev (an anchor without href, the click caught by the calendar),
a sortable list's items, a word in a paragraph, a slider's handle, an editable
area, SVG shapes. `scripts/reach.js`, run with the triage, finds them (from
the listeners an init script saw being added, the handlers React and Vue keep
on elements, jQuery's delegated selectors, `tabindex`, sortable and draggable
markers, `contenteditable`) and names them (their words, title, icon class or
colour). `place` gives them to the tree: one the tree has (same box) becomes
a control of its own with its `@e` ref; one it lacks (the word inside a
paragraph's text) is added where it sits, for an `@c` ref that the reach
scan's id keeps stable while the element lives. `snapshot -i`, `-C`, `find`
and every report read the same tree, so they all see the same controls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from refbrowse.daemon.core.devtools.scripts import called
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.page.snapshot.roles import INTERACTIVE, text_of
from refbrowse.daemon.page.snapshot.tree import Box, Node

_ACTS = frozenset(("acts", "focusable", "draggable", "editable", "canvas"))


@dataclass(frozen=True, slots=True)
class Reached:
    """One element of the reach scan: its id there, box, the role to show, its name and why it was found."""

    id: int
    box: Box
    role: str
    name: str
    flags: frozenset[str]
    value: str | None = None  # an editable area's text


def reached(found: Any) -> Reached:
    """A `Reached` from the scan's JSON row `[id, box, role, name, flags, value]`."""
    reach_id, (x, y, w, h), role, name, flags, value = found
    box = (int(x), int(y), int(w), int(h))
    text = None if value is None else str(value)
    return Reached(int(reach_id), box, str(role), str(name), frozenset(str(flags).split()), text)


class ListenerRecording:
    """Every page of a session remembers which elements got a click, press or key listener (see
    `scripts/listeners_hook.js`): the reach scan starts from them."""

    async def on_new_session(self, session: Session) -> None:
        await session.context.add_init_script(called("listeners_hook"))


def place(
    tree: Node, found: tuple[Reached, ...], nodes: list[Node] | None = None
) -> list[tuple[Node, Reached]]:
    """Make the scan's finds controls of `tree`; return the nodes added for those it lacked. `nodes`:
    the tree's, in document order, when the caller has them."""
    if not found:
        return []
    everything = nodes if nodes is not None else tree.walk()
    wanted = {each.box for each in found}  # a few boxes of a page's thousands: only those are kept
    by_box = {node.box: node for node in everything if node.box in wanted and not node.in_frame}
    added: list[tuple[Node, Reached]] = []
    for each in found:
        node = by_box.get(each.box)
        if node is not None and node.pw_ref and _same(node, each):
            _promote(node, each)
        elif each.flags & _ACTS:
            added.append((_add(tree, each), each))
    return added


def _same(node: Node, found: Reached) -> bool:
    """Whether the tree's node of the same box is the element found. An editable area the tree calls
    anything but a text box is not in the tree: the node is a wrapper of its size, which takes no typing."""
    return "editable" not in found.flags or node.role == "textbox"


def _promote(node: Node, found: Reached) -> None:
    """A node of the tree the scan found acted on: a control, named where the tree left it unnamed."""
    if not node.name and not text_of(node):
        node.called = found.name
    if not found.flags & _ACTS:
        return  # an icon control the tree has: only its name was missing
    if "draggable" in found.flags:
        node.marks |= {"draggable"}
    if node.role in INTERACTIVE:
        return
    node.aria_role = node.role  # what its ref is checked against: the line may say another
    if "canvas" in found.flags:
        node.role, node.called, node.pointer = "canvas", found.name, True
        node.marks |= found.flags & {"table"}
    else:
        node.pointer = True
        if node.role in ("generic", "none") and found.role in ("link", "slider handle"):
            node.role = found.role
            node.value = found.value if found.role == "slider handle" else node.value  # a link's text stays


def _add(tree: Node, found: Reached) -> Node:
    """A node for an element the tree lacks, under the innermost node whose box holds its box."""
    parent = tree
    while True:
        inner = next((c for c in _element_children(parent) if c.box and _holds(c.box, found.box)), None)
        if inner is None:
            break
        parent = inner
    node = Node(
        found.role, box=found.box, parent=parent, called=found.name, reached=found.id, value=found.value
    )
    node.marks = frozenset(found.flags & {"draggable", "table"})
    at = len(parent.children)
    for index, child in enumerate(parent.children):
        if (
            isinstance(child, Node)
            and child.box
            and (child.box[1], child.box[0]) > (found.box[1], found.box[0])
        ):
            at = index
            break
    parent.children.insert(at, node)
    return node


def _element_children(node: Node) -> list[Node]:
    return [child for child in node.children if isinstance(child, Node) and not child.in_frame]


def _holds(outer: Box, inner: Box) -> bool:
    x, y, w, h = outer
    a, b, c, d = inner
    return a >= x - 1 and b >= y - 1 and a + c <= x + w + 1 and b + d <= y + h + 1
