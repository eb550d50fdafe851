"""Text an action brought into view while no new control came with it.

An accordion that opens, a "Show details" button, a panel of prose: the
controls do not change, so the diff of the interactive view is empty and a
report that said only "Clicked @e26" read the same as a click that did
nothing. A tab whose panel is prose shows only that the tab is selected and
the other panel's controls went. The text that appeared is quoted (a few
lines, after the diff if there is one), with the command that reads the rest.

A table row reads as one line, its cells' words joined (the ai snapshot names a
cell by its text, and an agent reads a row, not a cell). When new controls came
too, only results are quoted: code blocks (an API console's answer) and table
rows (Locust's failures under the column headers of its tab).
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter

from refbrowse.daemon.page.snapshot.nodes import LIST_COUNT
from refbrowse.daemon.page.snapshot.roles import INTERACTIVE
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.tree import Node

SHOWN = 3  # lines of new text quoted
# Roles of the elements that sit inside a line of text (a <span> is "generic", as a <div> is).
_INLINE = frozenset(("strong", "emphasis", "code", "generic", "mark", "subscript", "superscript", "time"))
LINE_CHARS = 150  # characters of one quoted line
_CELLS = frozenset(("cell", "gridcell", "rowheader"))  # a row's words; its column headers are controls' names
_RESULTS = frozenset(("code", "row"))
_CHROME = INTERACTIVE - {"link"}  # controls whose names are a table's chrome, not its data


def texts(snapshot: PageSnapshot | None) -> tuple[str, ...] | None:
    """The page's text as the snapshot holds it, a line a piece, in document order; None when unread.

    Controls' names and values are left out: the interactive view says those. Text with
    elements inside it reads as one line.
    """
    return None if snapshot is None else tuple(_texts(snapshot.tree))


def _texts(root: Node) -> list[str]:
    out: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.role in INTERACTIVE:
            continue
        if node.role == "row":  # a line of its own; a header row's names are in the interactive view
            out += [line] if (line := _row_line(node)) else []
            continue
        # "Total: <b>42</b> items": the bold number is read with the words around it
        mixed = any(isinstance(c, str) and c.strip() for c in node.children)
        inline = [c for c in node.children if isinstance(c, str) or (mixed and _leaf(c))]
        pieces = [c if isinstance(c, str) else _leaf_text(c) for c in inline]
        pieces += [node.value] if node.value else []
        if (flat := _flat(" ".join(pieces))) and not _announced_count(node, flat):
            out.append(flat)
        joined = {id(c) for c in inline}
        stack += reversed([c for c in node.children if not isinstance(c, str) and id(c) not in joined])
    return out


def _announced_count(node: Node, text: str) -> bool:
    """A list's count said to screen readers in a live region ("4 options available."): the list is
    in the report."""
    return bool(LIST_COUNT.fullmatch(text)) and any(
        a.role in ("log", "status") for a in (node, *node.ancestors())
    )


def _row_line(row: Node) -> str:
    """A table row's cells, their words without the names of the controls inside, `·` between."""
    cells = [c for c in row.children if not isinstance(c, str) and c.role in _CELLS]
    words = [_flat(" ".join(_cell_words(cell))) for cell in cells]
    if all(word == _links_of(cell) for word, cell in zip(words, cells, strict=True)):
        return ""  # a calendar's week: each cell a day's link, which the interactive view lists
    return " · ".join(word for word in words if word)


def _links_of(cell: Node) -> str:
    """The names of the links in `cell`, as its words would read if they were all it held."""
    return _flat(" ".join(n.name for n in cell.walk() if n.role == "link" and n.name))


def _cell_words(node: Node) -> list[str]:
    """A cell's words: its name, unless controls inside make it up (a row's checkbox, a "Pin run" button:
    the table's own controls, not its data); a link's name is data (a run's name)."""
    if node.name and not any(n.role in _CHROME for n in node.walk()[1:]):
        return [node.name]
    words = [node.value] if node.value else []
    # a control's label shown beside it ("Pin run" by its checkbox) is the control's too
    labels = {c.name for c in node.children if not isinstance(c, str) and c.role in _CHROME}
    for child in node.children:
        if isinstance(child, str):
            words += [] if child in labels else [child]
        elif child.name and (child.role == "link" or (child.role not in INTERACTIVE and not child.children)):
            words.append(child.name)
        elif child.role == "link" or child.role not in INTERACTIVE:
            words += _cell_words(child)
    return words


def _flat(text: str) -> str:
    return " ".join(text.split())


def _leaf(node: Node) -> bool:
    """Text inside a line of text (a bold number, a code word): an inline element with no element of
    its own inside it. A paragraph or a heading beside some text is a line of its own."""
    return node.role in _INLINE and all(isinstance(c, str) for c in node.children)


def _leaf_text(node: Node) -> str:
    words = [c for c in node.children if isinstance(c, str)]
    return " ".join([*words, node.value] if node.value else words)


def results(snapshot: PageSnapshot | None) -> frozenset[str]:
    """The lines of `texts` that are results an action brought: code blocks (an API's answer), table rows."""
    if snapshot is None:
        return frozenset()
    found = (node for node in snapshot.tree.walk() if node.role in _RESULTS)
    return frozenset(line for node in found for line in _texts(node))


def lines(
    before: tuple[str, ...] | None,
    after: tuple[str, ...] | None,
    within: frozenset[str] | None = None,
    words: frozenset[str] = frozenset(),
) -> tuple[list[str], list[str]]:
    """`text appeared: "…"` lines (page text, to fence) for what `after` holds that `before` did not
    (as many times; only lines `within`, if given, and not those whose every word is in `words`), and our
    note on how to read the rest."""
    if before is None or after is None:
        return [], []
    changed = changed_lines(before, after)
    now = Counter(was_now[1] for was_now in changed)
    left = Counter(before)
    new: list[str] = []
    for text in after:
        if left[text] > 0:
            left[text] -= 1
        elif now[text] > 0:
            now[text] -= 1
        # once: a terminal's prompt is a new line each time, and its screen reader's list says each again
        elif (within is None or text in within) and not _said(text, words) and text not in new:
            new.append(text)
    said = [f"text changed: {_quote(was)} → {_quote(is_now)}" for was, is_now in changed[:SHOWN]]
    more = len(new) - SHOWN
    note = [f"… {more} more line{'s' if more != 1 else ''} of new text: `browse text`"] if more > 0 else []
    gone = _gone(before, after) if within is None else []
    return said + [f"text appeared: {_quote(text)}" for text in new[:SHOWN]] + gone, note


def _gone(before: tuple[str, ...], after: tuple[str, ...]) -> list[str]:
    """`text gone: "…"` for the few lines of text that went with nothing in their place (a notice
    dismissed, a section collapsed; a line replaced is said by what appeared); none when more went: a
    panel that closed says so in the diff of its controls."""
    still = set(after)
    gone = [
        text
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
        if tag == "delete"
        for text in before[i1:i2]
        if text not in still and len(text) <= LINE_CHARS
    ]
    return [f"text gone: {_quote(text)}" for text in gone] if len(gone) <= SHOWN else []


_WORDS = re.compile(r"[^\W\d_]+")
_ANY_WORD = re.compile(r"\w+")
_NAMES = re.compile(r'"(?:[^"\\]|\\.)*"')  # a name or a value in a view's line
_REF = re.compile(r"@[a-z]*\d+\b")


def words_said(diff: list[str]) -> frozenset[str]:
    """The words of the names and values on a diff's lines of elements that came (not of one whose
    name changed: a terminal's screen, named by all its text, would say every line it printed)."""
    went = {ref for line in diff if line.startswith("-") for ref in _REF.findall(line)}
    came = (line for line in diff if not line.startswith("-") and went.isdisjoint(_REF.findall(line)))
    shown = (name for line in came for name in _NAMES.findall(line))
    return frozenset(word for name in shown for word in _ANY_WORD.findall(name.casefold()))


def _said(text: str, said: frozenset[str]) -> bool:
    words = _ANY_WORD.findall(text.casefold())
    return bool(said) and bool(words) and all(word in said for word in words)


def changed_lines(before: tuple[str, ...], after: tuple[str, ...]) -> list[tuple[str, str]]:
    """Lines whose words stayed and whose numbers changed, where they stand: "8 matching runs" became
    "5 matching runs", "0 of 5 selected" became "5 of 5 selected"."""
    found: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            found += [(before[i], after[j]) for i, j in zip(range(i1, i2), range(j1, j2), strict=True)]
    return [(was, now) for was, now in found if _alike(was, now)]


def _alike(was: str, now: str) -> bool:
    words = _WORDS.findall(was.casefold())
    return bool(words) and words == _WORDS.findall(now.casefold()) and len(was) < LINE_CHARS


def _quote(text: str) -> str:
    short = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
    return json.dumps(short, ensure_ascii=False)
