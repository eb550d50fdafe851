"""The tree a snapshot is read into: a `Node` for each element line, text as strings among its children."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from refbrowse.errors import BrowseError

Box = tuple[int, int, int, int]


class SnapshotFormatError(BrowseError):
    """Playwright's snapshot text did not have the shape this parser knows."""


@dataclass(slots=True, eq=False)
class Node:
    role: str
    name: str = ""
    attrs: dict[str, str] = field(default_factory=dict)
    pw_ref: str = ""
    short_ref: str = ""  # ours (`@e3`), filled in by the snapshot service
    pointer: bool = False
    box: Box | None = None
    value: str | None = None  # inline text after the key: an input's value, a cell's text
    props: dict[str, str] = field(default_factory=dict)  # /url, /placeholder
    children: list[Node | str] = field(default_factory=list)  # str: a text child
    parent: Node | None = None
    in_frame: bool = False
    origin: tuple[int, int] = (0, 0)  # where the frame holding this node sits in the viewport
    marks: frozenset[str] = frozenset()  # DOM facts the ai snapshot lacks: "required", "collapsed"…
    note: str = ""  # an invalid field's error message, an iframe's title
    called: str = ""  # what the page calls a control the tree leaves unnamed: its icon's class, its colour
    aria_role: str = ""  # the tree's own role, where the line shows another (an editable area's textbox)
    reached: int = 0  # for an element outside the tree that a person can act on: its id in the reach scan

    def walk(self) -> list[Node]:
        """This node and every node below it, in document order.

        With a stack of the children lists being read, not recursion: a page nests deep, and a big
        page's tree is walked often (this reads each list once, with no copy of it).
        """
        out: list[Node] = [self]
        append = out.append
        lists = [iter(self.children)]
        push, pop = lists.append, lists.pop
        while lists:
            for child in lists[-1]:
                if child.__class__ is Node:
                    append(child)
                    if child.children:
                        push(iter(child.children))
                        break
            else:
                pop()
        return out

    def iter_walk(self) -> Iterator[Node]:
        """`walk`, a node at a time: for a search that stops at its first find in a big subtree
        (the tree must not change while it runs)."""
        yield self
        lists = [iter(self.children)]
        while lists:
            for child in lists[-1]:
                if child.__class__ is Node:
                    yield child
                    if child.children:
                        lists.append(iter(child.children))
                        break
            else:
                lists.pop()

    def ancestors(self) -> list[Node]:
        out = []
        node = self.parent
        while node is not None:
            out.append(node)
            node = node.parent
        return out
