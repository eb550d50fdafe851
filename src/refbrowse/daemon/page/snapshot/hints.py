"""Context for controls whose own name does not say which one they are.

An unnamed field gets the nearest label-like text of its own cell or container,
else the nearest before it (`near "Date:"`);
a control repeated in a table or list (`button "Refund"` three times) gets the
text of its row, or of its column's header for a header's own buttons (`Sort`).
Both are read from the parsed tree, so they cost no round trip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from itertools import takewhile

from refbrowse.daemon.page.snapshot.repeats import indexed
from refbrowse.daemon.page.snapshot.roles import VALUE_ROLES, actionable, once, shorten, text_of
from refbrowse.daemon.page.snapshot.rowline import in_said_row
from refbrowse.daemon.page.snapshot.tree import Node

HINT_LIMIT = 40
_ROWS = frozenset(("row", "listitem", "treeitem", "article"))
_CELLS = frozenset(("cell", "gridcell", "columnheader", "rowheader"))
_CLIMB = 3  # levels searched upwards for a preceding text
_BOXES = frozenset(("checkbox", "radio", "switch"))
_GROUP_FIELDS = 4  # fields of a row that one label names (a date and a time)
_CARD_CONTROLS = 12  # an article with more controls is a page's text, not a card or a note
# Twins outside rows are told apart by the text before each (Roundup's sidebar: "Create New" under
# "Issues" and under "Keywords"); a name said on many lines (a docs page's "Availability") gets none.
_FEW_TWINS = 3


def row_of(node: Node) -> str:
    """The text of the row or list item that holds `node`, without `node`'s own name."""
    for ancestor in node.ancestors():
        if ancestor.role in _ROWS:
            if ancestor.name and ancestor.name != node.name and not _named_alike(ancestor):
                return shorten(ancestor.name, HINT_LIMIT)
            if _names_the_row(ancestor, node):
                return ""  # Django's sidebar: `Users`, then its Add and Change
            if ancestor.role == "article":  # a card or a note by its title, even after its toolbar;
                if _controls(ancestor) > _CARD_CONTROLS:  # a page's whole article (mkdocs) is no row
                    return ""
                if heading := _heading_in(ancestor):
                    return heading
            return _header_before(_cell_in(ancestor, node)) or _first_text(ancestor, node)
    return ""


def _controls(container: Node) -> int:
    return sum(1 for n in container.walk() if actionable(n))


def _heading_in(article: Node) -> str:
    heading = next((n for n in article.walk() if n.role == "heading" and n.name), None)
    return shorten(heading.name, HINT_LIMIT) if heading is not None else ""


def twin_beside(node: Node) -> str:
    """The words of the cell next to `node`'s, before it else after, when its row holds another
    control of its role and name that its row's words would name alike (Roundup's calendar,
    `< November >` and `< 2026 >` in one row)."""
    row = next((a for a in node.ancestors() if a.role in _ROWS), None)
    if row is None or row.role != "row":  # a table's cells, not an article's or a list's blocks
        return ""
    twins = [n for n in row.walk() if n is not node and n.role == node.role and n.name == node.name]
    if not twins or row_of(node) not in {row_of(twin) for twin in twins}:
        return ""
    cell = _cell_in(row, node)
    at = next((i for i, child in enumerate(row.children) if child is cell), None)
    if at is None:
        return ""
    sides = (row.children[at - 1 : at] if at else []), row.children[at + 1 : at + 2]
    return next((text for side in sides if (text := _first_label(side))), "")


def key_of(node: Node) -> str:
    """The label cell of a key-value row (`Number of tags | [0]`): the words of the row's other
    cell, when the row has two or three cells and `node` is in one of them."""
    row = next((a for a in node.ancestors() if a.role in _ROWS), None)
    if row is None or row.role != "row":
        return ""
    cells = [c for c in row.children if not isinstance(c, str) and c.role in _CELLS]
    if not 2 <= len(cells) <= 3:
        return ""
    mine = _cell_in(row, node)
    for cell in cells:
        label = "" if cell is mine else cell.name or text_of(cell, HINT_LIMIT)
        if any(ch.isalpha() for ch in label):
            return shorten(label, HINT_LIMIT)
    return ""


def _cell_in(row: Node, node: Node) -> Node:
    """The child of `row` that holds `node` (its cell, in a table)."""
    return next((a for a in node.ancestors() if a.parent is row), node)


def _names_the_row(row: Node, node: Node) -> bool:
    """Whether `node` is a link holding the row's first words, and the row has no words outside its
    controls: the row has nothing to say of it beyond its own name."""
    if node.role != "link" or not node.name or _words_outside_controls(row):
        return False
    for child in row.children:
        if isinstance(child, str):
            continue
        if child is node or node in child.walk():
            return True
        if _words(child.name or text_of(child, HINT_LIMIT)):
            return False
    return False


def _words_outside_controls(node: Node) -> bool:
    """Whether `node` holds words that are not a control's (a container named by its link says nothing)."""
    for child in node.children:
        if isinstance(child, str):
            if _words(child):
                return True
        elif actionable(child):
            continue
        elif (
            _words(child.value or "")
            or (not child.children and _words(child.name))
            or _words_outside_controls(child)
        ):
            return True
    return False


def _named_alike(row: Node) -> bool:
    """Whether a row next to `row` has its name: a name every row has says which one it is no more than
    none (AG Grid names each row "Press SPACE to select this row.")."""
    siblings = row.parent.children if row.parent is not None else []
    at = siblings.index(row)
    return any(
        isinstance(other, Node) and other.role == row.role and other.name == row.name
        for other in siblings[max(at - 1, 0) : at + 2]
        if other is not row
    )


def column_of(node: Node) -> str:
    """The text of the column header that holds `node` (a column's own sort or menu button): the
    header row's text is the same for every column's buttons."""
    for ancestor in node.ancestors():
        if ancestor.role == "columnheader":
            return _text_outside_controls(ancestor)
        if ancestor.role in _ROWS:
            return ""
    return ""


def _text_outside_controls(container: Node) -> str:
    """The first words in `container` that are not inside a control (a header's name, not its buttons')."""
    for child in container.children:
        if isinstance(child, str):
            if _words(child):
                return shorten(child, HINT_LIMIT)
        elif not actionable(child):
            if child.value and _words(child.value):
                return shorten(child.value, HINT_LIMIT)
            if found := _text_outside_controls(child):
                return found
    return ""


def _first_text(row: Node, skip: Node, *, controls: bool = True) -> str:
    """The row's first words outside `skip`: a separator (`|`, `»`) is no words. Without
    `controls`, another control's name is no words either."""
    for child in row.children:
        if isinstance(child, str):
            if _words(child) and _inside_sentence(row, skip):  # the sentence, with the link's words
                return shorten(_with_links(row), HINT_LIMIT)
            if _words(child):
                return shorten(child, HINT_LIMIT)
            continue
        if child is skip or skip in child.walk() or (not controls and actionable(child)):
            continue
        text = child.name or text_of(child, HINT_LIMIT)
        if _words(text) and text != skip.name:
            return shorten(text, HINT_LIMIT)
    return ""


def _inside_sentence(row: Node, skip: Node) -> bool:
    """Whether `skip` is a link with words on both sides in `row`: 'The user “<a>alice</a>” was changed'."""
    if skip.role != "link" or skip.parent is not row:
        return False
    at = row.children.index(skip)
    sides = row.children[:at], row.children[at + 1 :]
    return all(any(isinstance(c, str) and _words(c) for c in side) for side in sides)


def _with_links(row: Node) -> str:
    """The row's words with its links' in their place: Django's 'The user “alice” was changed'."""
    pieces = [c if isinstance(c, str) else (c.name or text_of(c, HINT_LIMIT)) for c in row.children]
    return _TIGHT.sub(r"\1\2", " ".join(p.strip() for p in pieces if p.strip()))


_TIGHT = re.compile(r"([“‘(\[«]) | ([”’)\],.;:!?»])")  # no space inside quotes and brackets


def _words(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def near(node: Node) -> str:
    """The nearest label-like text of `node`'s own container, else the nearest text before it.

    A table cell or header names what its controls act on (the column's name), so
    the search stops there; in a container holding no other control the text after
    `node` counts too (a checkbox's label follows it); above that, only text before.
    """
    at: Node | None = node
    for _ in range(_CLIMB):
        if at is None or at.parent is None:
            return ""
        parent = at.parent
        if parent.role in _CELLS:
            return once(shorten(_cell_text(parent, node), HINT_LIMIT))
        index = next(i for i, child in enumerate(parent.children) if child is at)
        text = _first_label(reversed(parent.children[:index]))
        if not text and _holds_only(parent, node):
            text = _first_label(parent.children[index + 1 :])
        elif not text and node.role in _BOXES:  # a box's words follow it, before the next control
            text = _first_label(takewhile(_no_control, parent.children[index + 1 :]))
        if text:
            return once(shorten(text, HINT_LIMIT))
        at = parent
    return ""


def _cell_text(cell: Node, skip: Node) -> str:
    """The cell's words outside `skip` (not its value, nor another control's name), else the
    header that starts its row: Roundup's `<th>Priority</th><td><select>`, whose cell is named
    by the select's shown choice."""
    inside = {skip.value, *(n.name for n in skip.walk())}  # a select's choice is an option's name
    if cell.name and cell.name not in inside:
        return cell.name
    return _first_text(cell, skip, controls=False) or _header_before(cell)


def _header_before(cell: Node) -> str:
    row = cell.parent
    if row is None or row.role != "row":
        return ""
    index = next(i for i, child in enumerate(row.children) if child is cell)
    for before in reversed(row.children[:index]):
        if isinstance(before, Node) and before.role == "rowheader":
            return before.name or text_of(before, HINT_LIMIT)
        if isinstance(before, Node) and before.role in _CELLS:
            return ""  # another cell between: that header is not this cell's
    return ""


def _holds_only(container: Node, node: Node) -> bool:
    """Whether `node` is the only control under `container`: its text is then `node`'s label."""
    own = {id(n) for n in node.walk()}
    return not any(
        (actionable(n) or n.role in VALUE_ROLES) and id(n) not in own for n in container.iter_walk()
    )


def _no_control(item: Node | str) -> bool:
    return not isinstance(item, Node) or not actionable(item)


def _first_label(items: Iterable[Node | str]) -> str:
    return next((text for text in map(_label_text, items) if text), "")


def _label_text(item: Node | str) -> str:
    if isinstance(item, str):
        return "" if _sentence(item) else item.strip()
    if any(actionable(n) or n.role in VALUE_ROLES for n in item.iter_walk()):
        return ""  # another control, or a block holding one: its text labels that one
    text = item.name or text_of(item, 200)
    shortest = _PARAGRAPH_SENTENCE if item.role == "paragraph" else _SENTENCE
    return "" if _sentence(text, shortest) else shorten(text, HINT_LIMIT)


_SENTENCE = 8  # words: a message's line ("Bob: The report is late.") still tells its row apart
_PARAGRAPH_SENTENCE = 5  # a paragraph of its own is the page speaking: "Task 2: set the volume to 70."


def _sentence(text: str, shortest: int = _SENTENCE) -> bool:
    """A sentence of prose (the page's instructions) labels nothing: a hint that borrowed it would
    read as the control's purpose."""
    words = text.split()
    return len(words) >= shortest and words[-1][-1:] in ".!?…"


def structured_name(node: Node) -> str:
    """`Last login: Date`: an unnamed field labelled inside its group (`Date:`), the group by a label
    before it (`Last login:`), as a split date-and-time row is; "" when the structure says less."""
    at = node
    for _ in range(_CLIMB):
        parent = at.parent
        if parent is None or parent.role in _CELLS:
            return ""
        index = next(i for i, child in enumerate(parent.children) if child is at)
        own = _first_label(reversed(parent.children[:index]))
        if own:
            return _in_group(parent, index, own)
        at = parent
    return ""


def _in_group(group: Node, index: int, own: str) -> str:
    """`Last login: Date` when `own` is the text right before the field in a small group of fields
    that a label ending in a colon names; else ""."""
    before = next((c for c in reversed(group.children[:index]) if not isinstance(c, str) or c.strip()), None)
    fields = sum(1 for n in group.walk() if n.role in VALUE_ROLES)
    if not isinstance(before, str) or not 1 < fields <= _GROUP_FIELDS:
        return ""
    outer = _label_before(group)
    if not outer.endswith(":"):
        return ""
    return shorten(f"{outer} {own.rstrip(':').strip()}", HINT_LIMIT * 2)


def _label_before(group: Node) -> str:
    parent = group.parent
    if parent is None:
        return ""
    index = next(i for i, child in enumerate(parent.children) if child is group)
    return _first_label(reversed(parent.children[:index]))


def context_hints(
    node: Node, name: str, repeated: Mapping[tuple[str, str], int], rows: set[int]
) -> list[str]:
    """`(near "Date:")` for an unnamed control (its row's words when nothing is near), `(row
    "INV-1042")` for a repeated one (`(column "City")` for one in a column's header); none under a
    row line that says its row's words."""
    if not actionable(node):
        return []
    if not node.name and name and not any(ch.isalpha() for ch in name) and (key := key_of(node)):
        return [f"(row {_quote(key)})"]  # a count or a code says what it is only beside its label
    if not name or (not _words(name) and (node.role, node.name) not in repeated):  # Trac's "–"
        hint = near(node)
        if hint:
            return [f"(near {_quote(hint)})"]
        row = "" if in_said_row(node, rows) else row_of(node)  # a row's own checkbox, alone in its cell
        hints = [f"(row {_quote(row)})"] if row else []
        if "column" in node.marks and node.note:  # one of a row's boxes, each in a headed column
            hints.append(f"(column {_quote(node.note)})")
        return hints
    if not node.name and (node.role, name) in repeated:
        hint = near(node)  # icons named alike by their class: the words beside each tell them apart
        return [f"(near {_quote(hint)})"] if hint else []
    twin = (node.role, node.name) if (node.role, node.name) in repeated else (node.role, indexed(node.name))
    if twin in repeated and not in_said_row(node, rows):
        return _twin_hints(node, repeated[twin])
    return []


def _twin_hints(node: Node, twins: int) -> list[str]:
    """What tells a named control from the others of its name: its column, the cell beside it, its
    row, else (with few others) the text before it."""
    column = column_of(node)
    if column:
        return [f"(column {_quote(column)})"]
    beside = twin_beside(node)
    if beside:
        return [f"(near {_quote(beside)})"]
    row = row_of(node)
    if row:
        return [f"(row {_quote(row)})"]
    label = near(node) if twins <= _FEW_TWINS else ""
    if not label or label == node.name or any(a.name == label for a in node.ancestors()):
        return []  # a list's own name, on the line above, tells its options apart already
    return [f"(near {_quote(label)})"]


_QUOTE = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps with a keyword makes an encoder a call


def _quote(text: str) -> str:
    return _QUOTE(text)
