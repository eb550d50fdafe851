"""The parsed tree → the lines an agent reads, filtered in Python.

Scoping (`-s`), depth (`-d`), interactive-only (`-i`) and compact (`-c`) all
work on the tree of one whole-page snapshot, never on a snapshot of their own,
so refs outside the scope stay valid. Names, values and text are written as
JSON strings: whatever a page puts in them stays inside the quotes, and a ref
is only ever the `@eN` after the closing quote.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from refbrowse.daemon.page.snapshot import nodes
from refbrowse.daemon.page.snapshot.hints import context_hints, structured_name
from refbrowse.daemon.page.snapshot.prose import holders, sentence_with_links
from refbrowse.daemon.page.snapshot.roles import (
    CONTEXT,
    MESSAGES,
    VALUE_ROLES,
    WRAPPERS,
    actionable,
    once,
    shorten,
    text_of,
    title_of,
)
from refbrowse.daemon.page.snapshot.rowline import ROW_CELLS, data_row, in_said_row, row_cells, row_text
from refbrowse.daemon.page.snapshot.tree import Node

NAME_LIMIT = 150
TEXT_LIMIT = nodes.TEXT_LIMIT
OPTION_LIMIT = 12  # options of one select shown one a line; more become one line that counts them
_MESSAGE_LIMIT = 400  # page texts longer than this are never one of the messages triage found


@dataclass(frozen=True, slots=True)
class ViewOptions:
    interactive: bool = False
    compact: bool = False
    depth: int | None = None
    page_url: str = ""
    redact: frozenset[str] = frozenset()  # values of password fields, never shown
    messages: frozenset[str] = frozenset()  # alert, toast, banner and error texts: `-i` keeps them
    repeated: Mapping[tuple[str, str], int] = field(default_factory=dict)  # controls that need their row
    listed_above: frozenset[int] = frozenset()  # ids of overlay nodes shown before the tree: one line here
    unfold: bool = False  # a scoped view lists every option of a long list box
    prose: bool = False  # the interactive view keeps the text lines too: a small page shown whole
    said: Mapping[int, str] = field(default_factory=dict, compare=False)  # `PageSnapshot.said`


@dataclass(slots=True)
class Line:
    depth: int
    text: str
    parent: int  # index of the enclosing line, -1 at the top
    node: Node | None = None  # None for a text line
    children: list[int] = field(default_factory=list)

    def render(self) -> str:
        return "  " * self.depth + self.text


class _Builder:
    def __init__(self, options: ViewOptions) -> None:
        self.options = options
        self.lines: list[Line] = []
        self.said: set[str] = set()  # messages already written
        self.rows: set[int] = set()  # ids of the rows written with their words: their controls need no hint
        self.headed: dict[int, bool] = {}  # id of a table → whether it has column headers (data, not layout)
        origin = urlsplit(options.page_url)
        self.origin = f"{origin.scheme}://{origin.netloc}" if origin.netloc else ""

    def add(self, depth: int, text: str, parent: int, node: Node | None) -> int:
        if self.options.depth is not None and depth >= self.options.depth:
            return -2  # too deep: neither this line nor anything under it
        self.lines.append(Line(depth, text, parent, node))
        index = len(self.lines) - 1
        if parent >= 0:
            self.lines[parent].children.append(index)
        return index

    # full and compact views

    def full(self, node: Node, depth: int, parent: int) -> None:
        if nodes.says_nothing(node) or self._listed_above(node, depth, parent):
            return
        if self._hidden_wrapper(node) or nodes.repeats_only_child(node) or nodes.repeats_parent(node):
            self.full_children(node, depth, parent)
            return
        index = self.add(depth, self.describe(node), parent, node)
        if (
            index == -2
            or self._options(node, depth + 1, index, collapse_only=True)
            or nodes.named_by_children(node)
        ):
            return
        self.full_children(node, depth + 1, index)

    def full_children(self, node: Node, depth: int, parent: int) -> None:
        if node.value is not None and self._hidden_wrapper(node) and node.role not in VALUE_ROLES:
            self.add(depth, "- " + _quote(shorten(node.value, TEXT_LIMIT)), parent, None)
        # A field's text children are its value, already on its own line.
        children: list[Node | str] = (
            list(nodes.child_nodes(node)) if node.role in VALUE_ROLES else node.children
        )
        for index, child in enumerate(children):
            if isinstance(child, Node):
                self.full(child, depth, parent)
            elif child.strip() and not nodes.labels_a_neighbour(children, index):
                self.add(depth, "- " + _quote(shorten(child, TEXT_LIMIT)), parent, None)

    def _listed_above(self, node: Node, depth: int, parent: int) -> bool:
        """A blocking overlay already listed before the tree: one line where it sits, not its inside again."""
        if id(node) not in self.options.listed_above:
            return False
        self.add(depth, self.describe(node) + " (listed above)", parent, node)
        return True

    def _hidden_wrapper(self, node: Node) -> bool:
        if node.role == "document":
            return True
        if node.name or actionable(node) or node.role in CONTEXT:
            return False
        return node.role in WRAPPERS or (self.options.compact and not node.attrs)

    # interactive view

    def interactive(self, node: Node, depth: int, parent: int) -> bool:
        """Lines for what can be acted on under `node`, and messages that matter; True if any."""
        keep = (
            (
                actionable(node)
                and not nodes.repeats_parent(node)
                and not nodes.empty_item(node)
                and not nodes.wraps_one_control(node)
            )
            or (node.role in MESSAGES and nodes.says_something(node))
            or (node.role == "heading" and not nodes.repeats_container(node))
        )
        if keep and node.role in ROW_CELLS and in_said_row(node, self.rows):
            keep = False  # a grid's focusable cell: its row's line says its words
        container = nodes.context_container(node)
        if self._listed_above(node, depth, parent):
            return True
        if not keep and not container:
            if node.role == "row" and data_row(node, self.headed) and (cells := row_cells(node)):
                return self._row(node, cells, depth, parent)
            return self._interactive_children(node, depth, parent)
        mark = len(self.lines)
        index = self.add(depth, self.describe(node), parent, node)
        if index == -2:
            return False
        if node.note and "invalid" in node.marks:
            self._message(node.note, depth, parent)
        if node.role in MESSAGES:
            self._controls_inside(node, depth + 1, index)
            wrote = True
        elif self._folded_list(node, depth + 1, index):
            return True
        else:
            wrote = self._interactive_children(node, depth + 1, index)
        wrote = self._options(node, depth + 1, index) or wrote
        if container and not wrote:
            self._undo(mark, parent)
            return False
        return True

    def _row(self, row: Node, cells: list[tuple[str, Node]], depth: int, parent: int) -> bool:
        """A row with controls: one line of its cells' words, then its controls' lines under it."""
        mark = len(self.lines)
        index = self.add(depth, "- row " + row_text(cells, NAME_LIMIT), parent, row)
        if index == -2:
            return False
        self.rows.add(id(row))
        if self._interactive_children(row, depth + 1, index) or any(actionable(c) for _, c in cells):
            return True  # a grid's focusable cells are its controls: their refs are on the row's line
        self._undo(mark, parent)
        return False

    def _controls_inside(self, message: Node, depth: int, parent: int) -> None:
        """A toast's Undo, a notification's Yes and No: the message line says the text, these the refs."""
        for inner in message.walk()[1:]:
            if actionable(inner) and not any(
                a is not message and actionable(a) for a in nodes.between(inner, message)
            ):
                self.add(depth, self.describe(inner), parent, inner)

    def _interactive_children(self, node: Node, depth: int, parent: int) -> bool:
        wrote = False
        known = self.options.messages
        prose = (
            self.options.prose
            and node.role not in ("heading", *VALUE_ROLES)
            and not any(actionable(n) for n in holders(node))  # a link's words are its name already
        )
        said_inside = prose and any(
            isinstance(c, Node) and (c.name or c.called) == node.value for c in node.children
        )
        if (known or prose) and node.value and node.role not in VALUE_ROLES and not said_inside:
            wrote = self._message(node.value, depth, parent, only_known=not prose)
        pieces = [c for c in node.children if isinstance(c, str)] if prose else []
        known_message = any(self._in_message(piece) for piece in pieces)  # said on the report's top line
        sentence = sentence_with_links(node) if prose and not known_message else ""
        if sentence:  # "You may use", link, "here.": the words said whole once, then the links
            wrote = self._message(sentence, depth, parent) or wrote
        beside = nodes.labels_beside(node.children) if prose else set()
        for index, child in enumerate(node.children):
            if isinstance(child, Node) and ((sentence and child.role != "link") or index in beside):
                continue  # a bold word of the sentence; the words of the control beside it, said by its line
            if isinstance(child, Node):
                wrote = self.interactive(child, depth, parent) or wrote
            elif not (prose or known):
                continue  # a text piece is a line only as prose or a known message
            elif sentence or not any(ch.isalnum() for ch in child):
                continue  # said in the sentence; a lone full stop says nothing
            elif prose and not nodes.labels_a_neighbour(node.children, index) and not self._in_message(child):
                wrote = self._message(child, depth, parent) or wrote
            elif known and len(child) <= _MESSAGE_LIMIT:
                wrote = self._message(child, depth, parent, only_known=True) or wrote
        return wrote

    def _in_message(self, text: str) -> bool:
        """A piece of a message the report says whole on a line of its own (`Saved in version 2 (`)."""
        if not self.options.messages:
            return False
        flat = " ".join(text.split())
        return any(flat in message for message in self.options.messages)

    def _message(self, text: str, depth: int, parent: int, *, only_known: bool = False) -> bool:
        """A line for an alert, toast, banner or error text, once per snapshot."""
        flat = " ".join(text.split())
        if not flat or flat in self.said or (only_known and flat not in self.options.messages):
            return False
        self.said.add(flat)
        return self.add(depth, "- " + _quote(shorten(flat, TEXT_LIMIT)), parent, None) != -2

    def _options(self, node: Node, depth: int, parent: int, *, collapse_only: bool = False) -> bool:
        """A closed select's options: each of a few, or one line that counts them."""
        if node.role not in ("combobox", "listbox"):
            return False
        if collapse_only and self._folded_list(node, depth, parent):
            return True
        options = [c for c in node.walk() if c.role == "option" and not c.pw_ref]
        if len(options) > OPTION_LIMIT:
            examples = ", ".join(_quote(shorten(o.name, 40)) for o in options[:3])
            pick = f"`browse select {node.short_ref} NAME` picks one" if node.short_ref else "`browse forms`"
            self.add(depth, f"- {len(options)} options, e.g. {examples} … ({pick})", parent, None)
            return True
        if collapse_only:
            return False
        for option in options:
            self.add(depth, self.describe(option), parent, option)
        return bool(options)

    def _folded_list(self, node: Node, depth: int, parent: int) -> bool:
        """A list box with many options (a multi-select of permissions): a count, the chosen, a few more."""
        if node.role != "listbox" or self.options.unfold:
            return False
        options = [c for c in node.walk() if c.role == "option" and not nodes.repeats_parent(c)]
        if len(options) <= OPTION_LIMIT:
            return False
        chosen = [o for o in options if "selected" in o.attrs or "checked" in o.attrs]
        others = [o for o in options if o not in chosen][:3]
        said = ", ".join(_quote(shorten(o.name, 40)) for o in others)
        picked = ", ".join(_quote(shorten(o.name, 40)) for o in chosen[:OPTION_LIMIT]) or "none"
        how = (
            f"`browse snapshot -s {node.short_ref}` lists them"
            if node.short_ref
            else "`browse forms` lists them"
        )
        line = f"- {len(options)} options, selected: {picked}; others e.g. {said} … ({how})"
        self.add(depth, line, parent, None)
        return True

    def _undo(self, mark: int, parent: int) -> None:
        del self.lines[mark:]
        if parent >= 0:
            self.lines[parent].children = [i for i in self.lines[parent].children if i < mark]

    # one line

    def describe(self, node: Node) -> str:
        parts = ["-", node.role]
        drawing = node.role == "canvas" and bool(node.called)  # its label and size, from the reach scan
        name = node.called if drawing else node.name or self.derived_name(node)
        if name and not node.name and node.role not in VALUE_ROLES:
            self.said.add(" ".join(name.split()))  # its words are its name: not a text line under it too
        if name:
            parts.append(_quote(shorten(once(name), NAME_LIMIT)))
        if node.short_ref:
            parts.append(node.short_ref)
        if drawing:
            parts.append(
                _DRAWN_TABLE
                if "table" in node.marks
                else "(only `browse mouse` and screenshots reach inside)"
            )
        context = context_hints(node, name, self.options.repeated, self.rows)
        parts.extend(context)
        parts.extend(nodes.shown_states(node))
        parts.extend(filter(None, [nodes.form_name(node, context)]))
        if node.props.get("placeholder"):
            parts.append(f"[placeholder={_quote(node.props['placeholder'])}]")
        if "url" in node.props and not self.options.interactive:
            parts.append("→ " + _quote_if_needed(self.short_url(node.props["url"])))
        line = " ".join(parts)
        value = self.value(node)
        if value is not None and name and not node.name and node.role not in VALUE_ROLES:
            value = None  # the text inside became the name: it says it once

        return line + (": " + _quote(shorten(value, TEXT_LIMIT)) if value is not None else "")

    def derived_name(self, node: Node) -> str:
        """A name from the text inside, for controls and headings without one; never a field's own value."""
        if node.role in VALUE_ROLES:
            return (node.called or structured_name(node)) if not node.name else ""
        if not (actionable(node) or node.role == "heading"):
            return ""
        if node.called:
            return node.called
        title = title_of(node)  # a panel that holds controls says its title, not its controls' words
        if title is not None:
            return title
        if not (self.options.interactive or nodes.named_by_children(node)):
            return ""
        said = self.options.said.get(id(node))  # the same words, worked out when its ref was given
        return said if said is not None else text_of(node)

    def value(self, node: Node) -> str | None:
        if node.role in MESSAGES:
            said = node.value or text_of(node, TEXT_LIMIT, controls=False)  # the controls have lines
            self.said.add(" ".join(said.split()))
            return said or None
        if node.role not in VALUE_ROLES and not (node.value and not self.options.interactive):
            return None
        if node.role == "combobox" and node.value is None:
            selected = [c.name for c in node.walk() if c.role == "option" and "selected" in c.attrs]
            return ", ".join(selected) if selected else nodes.shown_choice(node)
        texts = [c for c in node.children if isinstance(c, str)]
        value = node.value if node.value is not None else (" ".join(texts) if texts else None)
        if value:
            self.said.add(" ".join(value.split()))  # an editable area's text is not a line of its own too
        if value and (value in self.options.redact or "password" in node.marks):
            return "(password hidden)"
        return value

    def short_url(self, href: str) -> str:
        """Absolute, then shortened to a path on the page's own origin (`#x` stays as it is)."""
        if href.startswith("#") or not self.options.page_url:
            return href
        url = urljoin(self.options.page_url, href)
        if self.origin and url.startswith(self.origin + "/"):
            return url[len(self.origin) :]
        return url


_QUOTE = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps with a keyword makes an encoder a call


_DRAWN_TABLE = "(`browse tables` reads its table; only `browse mouse` and screenshots reach inside)"


def _quote(text: str) -> str:
    return _QUOTE(text)


def _quote_if_needed(url: str) -> str:
    return url if url and not any(c.isspace() or c in "\"'" for c in url) else _quote(url)


def build_lines(roots: list[Node], options: ViewOptions) -> list[Line]:
    """The lines for `roots` (the whole page, or the nodes `-s` chose)."""
    builder = _Builder(options)
    for root in roots:
        if options.interactive:
            builder.interactive(root, 0, -1)
        else:
            builder.full(root, 0, -1)
    return builder.lines
