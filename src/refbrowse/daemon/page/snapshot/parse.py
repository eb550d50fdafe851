"""Playwright's ai-mode snapshot text → a tree of `Node`s, with a real tokenizer.

The text is YAML-shaped: each line is `- KEY`, `- KEY: VALUE`, `- text: VALUE`
or `- /prop: VALUE`, indented two spaces a level. KEY is `role "name" [attr]…`
where the name is a JSON string, and the whole KEY is wrapped in YAML single
quotes when it holds `: `, ` #` and the like. Most lines are read whole with one
pattern; the rest go to the token reader (`tokens`), which reads every line
the same way and says where one is malformed.
"""

from __future__ import annotations

import re

from refbrowse.daemon.page.snapshot.tokens import ATTRIBUTE, Cursor, apply_attribute, tokenize_line
from refbrowse.daemon.page.snapshot.tree import Node

# The glyphs of icon fonts (Font Awesome, Material Icons' private-use code points): drawn as icons,
# read as nothing. Node-RED's toolbar named its buttons "\uf002" and "\uf0c9"; gone, they are
# unnamed, and get the hints of unnamed controls.
_ICON_GLYPHS = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")

# The shapes nearly every line has, read whole in one match (a big page's parse took 60-130 ms
# line by line): `- text: VALUE`, `- /prop: VALUE`, `- role "name" [attr]…[: VALUE]`, each value
# plain or double-quoted without an escape, a name without one, single spaces. Anything else (a
# single-quoted key, an escape, odd spacing, a malformed line) goes to `tokenize_line`, which reads
# the same grammar token by token and says where a line is malformed.
_PLAIN = r"(?:\"([^\"\\]*)\"|([^\"'].*))"
_FAST_LINE = re.compile(
    rf"( *)- (?:text: {_PLAIN}|/([A-Za-z]+): {_PLAIN}"
    r"|(?!text:)([A-Za-z0-9_-]+)(?: \"([^\"\\]*)\")?((?: \[[A-Za-z0-9_-]+(?:=[^\]]*)?\])*?)"
    # the attributes Playwright writes last, each read by the pattern: `[ref=e5] [cursor=pointer] [box=…]`
    r"(?: \[ref=([A-Za-z0-9_-]+)\])?(?: \[cursor=([a-z-]+)\])?(?: \[box=(-?\d+),(-?\d+),(-?\d+),(-?\d+)\])?"
    rf"(:(?: {_PLAIN})?)?)\Z"
)


def parse_snapshot(text: str, *, whole_lines: bool = True) -> Node:
    """The whole snapshot under one synthetic `document` node (`whole_lines=False`: every line token
    by token, which the tests compare with the whole-line reading)."""
    return parse_nodes(text, whole_lines=whole_lines)[0]


def parse_nodes(text: str, *, whole_lines: bool = True) -> tuple[Node, list[Node]]:
    """`parse_snapshot`, and every node of the tree in document order (the root first), as they
    were read: a big page's tree need not be walked to be gone through once."""
    root = Node(role="document")
    made = [root]
    glyphs = _has_glyphs(text)
    text = _ICON_GLYPHS.sub("", text) if glyphs else text
    stack: list[Node] = [root]  # stack[d] is the node whose children sit at depth d
    whole = _FAST_LINE.match if whole_lines else _never
    # One loop, the common lines read in place: a call and a tuple per line were a third of the parse.
    for number, raw in enumerate(text.splitlines(), 1):
        fast = whole(raw)
        groups = fast.groups() if fast is not None else None
        if groups is None or len(groups[0]) % 2:
            if raw.strip() and (node := _token_line(stack, raw, number)) is not None:
                made.append(node)
            continue
        depth = len(groups[0]) >> 1
        if depth >= len(stack):
            raise Cursor(raw, number).fail("indented deeper than its parent")
        del stack[depth + 1 :]
        parent = stack[depth]
        if groups[6] is not None:
            made.append(_whole_node(parent, groups, number))
            stack.append(made[-1])
        elif groups[3] is not None:
            parent.props[groups[3]] = (groups[4] if groups[4] is not None else groups[5]) or ""
        else:
            parent.children.append((groups[1] if groups[1] is not None else groups[2]) or "")
    if glyphs:
        _respace(root)
    return root, made


def _never(raw: str) -> None:
    return None


def _has_glyphs(text: str) -> bool:
    """Whether `text` holds an icon font's glyph. Its UTF-8 bytes tell at once when it cannot: those
    code points begin with 0xEE, 0xEF, 0xF3 or 0xF4, which a page's text rarely has (searching a big
    page with the pattern took 10-15 ms)."""
    encoded = text.encode("utf-8", "surrogatepass")
    if not any(lead in encoded for lead in (b"\xee", b"\xef", b"\xf3", b"\xf4")):
        return False
    return _ICON_GLYPHS.search(text) is not None


def _token_line(stack: list[Node], raw: str, number: int) -> Node | None:
    """A line the pattern could not read whole, read token by token and placed in the tree; the
    node it made, if any."""
    line = tokenize_line(raw, number)
    if line.depth + 1 > len(stack):
        raise Cursor(raw, number).fail("indented deeper than its parent")
    del stack[line.depth + 1 :]
    parent = stack[line.depth]
    if line.kind == "text":
        parent.children.append(line.value or "")
    elif line.kind == "prop":
        parent.props[line.key] = line.value or ""
    else:
        assert line.node is not None
        _attach(parent, line.node, line.value)
        stack.append(line.node)
    return line.node


def _respace(root: Node) -> None:
    """Names and text whose icon glyphs went, in single spaces; text left empty goes too."""
    for node in root.walk():
        node.name = " ".join(node.name.split())
        node.value = " ".join(node.value.split()) if node.value is not None else None
        texts = [" ".join(c.split()) if isinstance(c, str) else c for c in node.children]
        node.children = [c for c in texts if not isinstance(c, str) or c]


def _whole_node(parent: Node, groups: tuple[str | None, ...], number: int) -> Node:
    """The element of a line `_FAST_LINE` read whole, attached to `parent`."""
    (_, _, _, _, _, _, role, name, attributes, ref, cursor, x, y, w, h, tail, quoted_value, value) = groups
    assert role is not None
    node = Node(role, name or "")
    if attributes:
        _apply_attributes(node, attributes, number)
    if ref is not None:
        node.pw_ref = ref
    if cursor is not None:
        node.pointer = cursor == "pointer"
    if x is not None:
        node.box = (int(x), int(y), int(w), int(h))  # type: ignore[arg-type] # all four, or none
    if tail is None or tail == ":":
        _attach(parent, node, None)
    else:
        _attach(parent, node, quoted_value if quoted_value is not None else value)
    return node


def _apply_attributes(node: Node, attributes: str, number: int) -> None:
    cursor = Cursor(attributes, number)
    for attribute in ATTRIBUTE.finditer(attributes):
        key, value = attribute.groups()
        apply_attribute(node, key, value if value is not None else "true", cursor)


def _attach(parent: Node, node: Node, value: str | None) -> None:
    node.parent = parent
    node.value = value
    parent.children.append(node)
    if not parent.in_frame and parent.role != "iframe":
        return  # in the page itself, as a new node already says (no frame, its origin at 0, 0)
    node.in_frame = True
    node.origin = parent.box[:2] if parent.role == "iframe" and parent.box else parent.origin
    if node.box is not None:
        # Boxes inside a frame are relative to it: shift them into the page's viewport.
        x, y, w, h = node.box
        node.box = (x + node.origin[0], y + node.origin[1], w, h)
