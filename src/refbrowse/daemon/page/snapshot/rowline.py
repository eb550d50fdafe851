"""A table's row read as one line: its cells' words, for the rows one selects (a change list's box, a grid's
focusable cells), with the controls under it."""

from __future__ import annotations

import json

from refbrowse.daemon.page.snapshot.roles import VALUE_ROLES, actionable, shorten
from refbrowse.daemon.page.snapshot.tree import Node

ROW_CELLS = frozenset(("cell", "gridcell", "rowheader"))


def row_cells(row: Node) -> list[tuple[str, Node]]:
    """A table or grid row's data: each cell's words, without the names of the controls inside (their
    own lines say those), with the cell. Empty for a row with no cells, or whose cells hold only
    controls (a sidebar's `Users`, `Add`): what a change list's row says beside its checkbox and link."""
    if row.role != "row":
        return []
    cells = [c for c in row.children if isinstance(c, Node) and c.role in ROW_CELLS]
    words = [(" ".join(" ".join(_cell_words(cell)).split()), cell) for cell in cells]
    return [(word, cell) for word, cell in words if word]


def _cell_words(node: Node) -> list[str]:
    """The words of a cell outside its controls; an image's text counts (Django's staff status "True")."""
    if (actionable(node) and node.role not in ROW_CELLS) or node.role in VALUE_ROLES:
        return []  # a grid's cells are focusable, and their words are its data
    if node.name and not any(actionable(n) for n in node.walk()[1:]):
        return [node.name]
    words = [node.value] if node.value else []
    for child in node.children:
        if isinstance(child, str):
            words.append(child)
        else:
            words += _cell_words(child)
    return words


def row_text(cells: list[tuple[str, Node]], limit: int) -> str:
    """`"alice@example.com · Alice · True"`; a focusable cell (a grid's) has its ref after its words:
    `"tree" @e98 · "0.41" @e99`."""
    parts: list[str] = []
    plain: list[str] = []
    for words, cell in cells:
        ref = cell.short_ref if actionable(cell) else ""
        if not ref:
            plain.append(words)
            continue
        if plain:
            parts.append(json.dumps(shorten(" · ".join(plain), limit), ensure_ascii=False))
            plain = []
        parts.append(f"{json.dumps(shorten(words, limit), ensure_ascii=False)} {ref}")
    if plain:
        parts.append(json.dumps(shorten(" · ".join(plain), limit), ensure_ascii=False))
    return " · ".join(parts)


_TABLES = frozenset(("table", "grid", "treegrid"))


_PICKS = frozenset(("checkbox", "radio", "switch"))


def data_row(row: Node, headed: dict[int, bool]) -> bool:
    """A row of a table of data that one selects (a change list's box, a grid's focusable cells): its
    table has column headers (a form laid out in a table has none); `headed` keeps the answer for each
    table. A row of links alone (Datasette's) stays its links: its words are `tables`' to read."""
    table = next((a for a in row.ancestors() if a.role in _TABLES), None)
    if table is None or not any(
        n.role in _PICKS or (n.role in ROW_CELLS and actionable(n)) for n in row.walk()
    ):
        return False
    if id(table) not in headed:
        headed[id(table)] = any(n.role == "columnheader" for n in table.walk())
    return headed[id(table)]


def in_said_row(node: Node, rows: set[int]) -> bool:
    """Whether `node` is under a row line that says the row's words (`rows`: their ids)."""
    return bool(rows) and any(id(a) in rows for a in node.ancestors() if a.role == "row")
