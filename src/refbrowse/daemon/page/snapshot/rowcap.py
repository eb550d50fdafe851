"""A long table's first rows in an arrival view, and a line saying how many more there are.

A page an action arrives at is read for its controls and a sample of its data:
Datasette's hundred rows, Wagtail's page explorer, an admin's change list. Their
rows filled the arrival view's budget (a thousand tokens of row ids and "More
options for '…'" buttons) that an agent reads once and then asks `tables`,
`find` or `snapshot -i` for the row it wants. So an arrival view shows the first
`SHOWN` data rows of a table that has more than `LONG` and says the rest in one
line; `snapshot -i` still lists every row.
"""

from __future__ import annotations

from refbrowse.daemon.page.snapshot import linkcloud
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.snapshot.view import Line

SHOWN = 5  # data rows of a long table an arrival view shows
LONG = 8  # a table with more data rows than this is cut to `SHOWN`
_TABLES = frozenset(("table", "grid", "treegrid"))


def cap(lines: list[Line]) -> tuple[list[Line], str]:
    """`lines` with each long table's rows past the first `SHOWN` left out, and our note saying so ("")."""
    rows: dict[int, list[int]] = {}  # a table's id → its data rows' ids, in order
    row_of: list[int | None] = []
    for line in lines:
        row = _row(line.node)
        row_of.append(None if row is None else id(row))
        if row is not None and (table := _table(row)) is not None and not _header(row):
            seen = rows.setdefault(id(table), [])
            seen += [] if id(row) in seen else [id(row)]
    late = {row for found in rows.values() if len(found) > LONG for row in found[SHOWN:]}
    if not late:
        return lines, ""
    dropped = {index for index, row in enumerate(row_of) if row in late}
    return linkcloud.without(lines, {}, dropped), _note(
        len(late), sum(len(f) for f in rows.values() if len(f) > LONG)
    )


def _note(left: int, rows: int) -> str:
    return (
        f"… {left} more table rows ({rows} in all): `browse tables` reads them, "
        "`browse snapshot -i` lists their refs"
    )


def _row(node: Node | None) -> Node | None:
    while node is not None and node.role != "row":
        node = node.parent
    return node


def _table(row: Node) -> Node | None:
    node = row.parent
    while node is not None and node.role not in _TABLES:
        node = node.parent
    return node


def _header(row: Node) -> bool:
    return any(not isinstance(c, str) and c.role == "columnheader" for c in row.children)
