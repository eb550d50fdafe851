"""The order a person sees: rows a page moves on screen are read where they stand.

A data grid (AG Grid, MUI's) keeps its rows in the order they were made and
places each with a `translateY`; after a sort the source says one order and
the screen another, and an agent reading the source order names the wrong
row. Rows, items and options of one list that stand in one column are put in
the order of their boxes, top to bottom, before anything reads the tree: the
snapshot, the reports and `find` all see what the screen shows.
"""

from __future__ import annotations

from refbrowse.daemon.page.snapshot.tree import Node

_ORDERED = frozenset(("row", "listitem", "option", "treeitem", "article"))
_SAME_COLUMN = 4  # pixels: the items of one column start at the same x, give or take


def by_screen(nodes: list[Node]) -> bool:
    """Reorder, in place, each run of sibling rows (or items) in one column by where they stand;
    `nodes` are every node of the tree, in any order. Whether any moved."""
    holders: dict[int, Node] = {}  # the parents of rows: on a big page, few of its nodes
    for node in nodes:
        if node.role in _ORDERED and node.box and node.parent is not None:
            holders.setdefault(id(node.parent), node.parent)
    moved_any = False
    for node in holders.values():
        rows = [c for c in node.children if c.__class__ is Node and c.role in _ORDERED and c.box]
        if len(rows) < 2 or not _one_column(rows):
            continue
        placed = sorted(rows, key=lambda row: row.box[1] if row.box else 0)
        if placed == rows:
            continue
        moved = {id(row) for row in rows}
        slots = iter(placed)
        node.children = [next(slots) if id(c) in moved else c for c in node.children]
        moved_any = True
    return moved_any


def _one_column(rows: list[Node]) -> bool:
    xs = [row.box[0] for row in rows if row.box]
    return max(xs) - min(xs) <= _SAME_COLUMN
