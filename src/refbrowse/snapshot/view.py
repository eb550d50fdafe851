"""The parsed tree → the lines an agent reads, filtered in Python.

Scoping (`-s`), depth (`-d`), interactive-only (`-i`) and compact (`-c`) all
work on the tree of one whole-page snapshot, never on a snapshot of their own,
so refs outside the scope stay valid. Names, values and text are written as
JSON strings: whatever a page puts in them stays inside the quotes, and a ref
is only ever the `@eN` after the closing quote.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from refbrowse.snapshot.parse import Node
from refbrowse.snapshot.roles import (
    CONTEXT,
    LANDMARKS,
    VALUE_ROLES,
    WRAPPERS,
    actionable,
    shorten,
    text_of,
)

NAME_LIMIT = 150
TEXT_LIMIT = 300
OPTION_LIMIT = 12  # options of one select shown by -i
_SHOWN_STATES = ("checked", "disabled", "expanded", "pressed", "selected", "invalid", "level")


@dataclass(frozen=True, slots=True)
class ViewOptions:
    interactive: bool = False
    compact: bool = False
    depth: int | None = None
    page_url: str = ""
    redact: frozenset[str] = frozenset()  # values of password fields, never shown


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
        if _says_nothing(node):
            return
        if self._hidden_wrapper(node):
            self.full_children(node, depth, parent)
            return
        index = self.add(depth, self.describe(node), parent, node)
        if index != -2:
            self.full_children(node, depth + 1, index)

    def full_children(self, node: Node, depth: int, parent: int) -> None:
        if node.value is not None and self._hidden_wrapper(node) and node.role not in VALUE_ROLES:
            self.add(depth, "- " + _quote(shorten(node.value, TEXT_LIMIT)), parent, None)
        # A field's text children are its value, already on its own line.
        children: list[Node | str] = list(_nodes(node)) if node.role in VALUE_ROLES else node.children
        for index, child in enumerate(children):
            if isinstance(child, Node):
                self.full(child, depth, parent)
            elif child.strip() and not _labels_a_neighbour(children, index):
                self.add(depth, "- " + _quote(shorten(child, TEXT_LIMIT)), parent, None)

    def _hidden_wrapper(self, node: Node) -> bool:
        if node.role == "document":
            return True
        if node.name or actionable(node) or node.role in CONTEXT:
            return False
        return node.role in WRAPPERS or (self.options.compact and not node.attrs)

    # interactive view

    def interactive(self, node: Node, depth: int, parent: int) -> bool:
        """Lines for what can be acted on under `node`; True when any was written."""
        keep = actionable(node) or (node.role == "heading" and not _repeats_container(node))
        container = _context_container(node)
        if not keep and not container:
            return any([self.interactive(c, depth, parent) for c in _nodes(node)])
        mark = len(self.lines)
        index = self.add(depth, self.describe(node), parent, node)
        if index == -2:
            return False
        wrote = any([self.interactive(c, depth + 1, index) for c in _nodes(node)])
        wrote = self._options(node, depth + 1, index) or wrote
        if container and not wrote:
            self._undo(mark, parent)
            return False
        return True

    def _options(self, node: Node, depth: int, parent: int) -> bool:
        if node.role not in ("combobox", "listbox"):
            return False
        options = [c for c in node.walk() if c.role == "option" and not c.pw_ref]
        for option in options[:OPTION_LIMIT]:
            self.add(depth, self.describe(option), parent, option)
        if len(options) > OPTION_LIMIT:
            more = f"- … {len(options) - OPTION_LIMIT} more options (`browse forms` lists them)"
            self.add(depth, more, parent, None)
        return bool(options)

    def _undo(self, mark: int, parent: int) -> None:
        del self.lines[mark:]
        if parent >= 0:
            self.lines[parent].children = [i for i in self.lines[parent].children if i < mark]

    # one line

    def describe(self, node: Node) -> str:
        parts = ["-", node.role]
        derive = self.options.interactive and (actionable(node) or node.role == "heading")
        name = node.name or (text_of(node) if derive else "")
        if name:
            parts.append(_quote(shorten(name, NAME_LIMIT)))
        if node.short_ref:
            parts.append(node.short_ref)
        parts.extend(_states(node))
        if "placeholder" in node.props:
            parts.append(f"[placeholder={_quote(node.props['placeholder'])}]")
        if "url" in node.props and not self.options.interactive:
            parts.append("→ " + _quote_if_needed(self.short_url(node.props["url"])))
        line = " ".join(parts)
        value = self.value(node)
        return line + (": " + _quote(shorten(value, TEXT_LIMIT)) if value is not None else "")

    def value(self, node: Node) -> str | None:
        if node.role not in VALUE_ROLES and not (node.value and not self.options.interactive):
            return None
        if node.role == "combobox" and node.value is None:
            selected = [c.name for c in node.walk() if c.role == "option" and "selected" in c.attrs]
            return ", ".join(selected) if selected else None
        texts = [c for c in node.children if isinstance(c, str)]
        value = node.value if node.value is not None else (" ".join(texts) if texts else None)
        if value and value in self.options.redact:
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


def _says_nothing(node: Node) -> bool:
    """An empty, unnamed, inert node (an empty list item, a bare image): a line for nothing."""
    empty = (
        not node.name
        and node.value is None
        and not any(isinstance(child, Node) or child.strip() for child in node.children)
    )
    return empty and not actionable(node) and node.role not in CONTEXT


def _context_container(node: Node) -> bool:
    """Landmarks, dialogs and frames frame the controls of `-i`; an unnamed `main` says nothing."""
    if node.role == "main" and not node.name:
        return False
    return node.role in LANDMARKS or node.role in ("dialog", "alertdialog", "iframe")


def _repeats_container(heading: Node) -> bool:
    """A heading that only repeats the name of the landmark it opens (`region "Cart"`, `heading "Cart"`)."""
    parent = heading.parent
    return bool(parent and parent.name and parent.name == heading.name and _context_container(parent))


def _labels_a_neighbour(children: list[Node | str], index: int) -> bool:
    """A label's text next to the field it names says the same thing twice."""
    text = " ".join(str(children[index]).split())
    for near in children[max(index - 1, 0) : index + 2]:
        if isinstance(near, Node) and near.name and near.name == text:
            return True
    return False


def _nodes(node: Node) -> list[Node]:
    return [c for c in node.children if isinstance(c, Node)]


def _states(node: Node) -> list[str]:
    out = []
    for key in _SHOWN_STATES:
        value = node.attrs.get(key)
        if value is not None:
            out.append(f"[{key}]" if value == "true" else f"[{key}={value}]")
    return out


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


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
