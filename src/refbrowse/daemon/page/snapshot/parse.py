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
    root = Node(role="document")
    glyphs = _ICON_GLYPHS.search(text) is not None
    text = _ICON_GLYPHS.sub("", text) if glyphs else text
    stack: list[Node] = [root]  # stack[d] is the node whose children sit at depth d
    whole = _FAST_LINE.match if whole_lines else None
    for number, raw in enumerate(text.splitlines(), 1):
        read = _whole_line(whole(raw), number) if whole is not None else None
        if read is None:
            if not raw.strip():
                continue
            line = tokenize_line(raw, number)
            read = line.depth, line.kind, line.node, line.key, line.value
        depth, kind, node, key, value = read
        if depth + 1 > len(stack):
            raise Cursor(raw, number).fail("indented deeper than its parent")
        del stack[depth + 1 :]
        parent = stack[depth]
        if kind == "text":
            parent.children.append(value or "")
        elif kind == "prop":
            parent.props[key] = value or ""
        else:
            assert node is not None
            _attach(parent, node, value)
            stack.append(node)
    if glyphs:
        _respace(root)
    return root


def _respace(root: Node) -> None:
    """Names and text whose icon glyphs went, in single spaces; text left empty goes too."""
    for node in root.walk():
        node.name = " ".join(node.name.split())
        node.value = " ".join(node.value.split()) if node.value is not None else None
        texts = [" ".join(c.split()) if isinstance(c, str) else c for c in node.children]
        node.children = [c for c in texts if not isinstance(c, str) or c]


_Read = tuple[int, str, "Node | None", str, "str | None"]  # depth, kind, node, prop key, value


def _whole_line(fast: re.Match[str] | None, number: int) -> _Read | None:
    """A line `_FAST_LINE` read whole; None for the token reader."""
    if fast is None or len(fast.group(1)) % 2:
        return None
    (indent, quoted_text, text, key, quoted_prop, prop, role, name, attributes, ref, cursor,
     x, y, w, h, tail, quoted_value, value) = fast.groups()  # fmt: skip
    depth = len(indent) // 2
    if role is None:
        if key is not None:
            return depth, "prop", None, key, quoted_prop if quoted_prop is not None else prop
        return depth, "text", None, "", quoted_text if quoted_text is not None else text
    node = Node(role, name or "")
    if attributes:
        _apply_attributes(node, attributes, number)
    if ref is not None:
        node.pw_ref = ref
    if cursor is not None:
        node.pointer = cursor == "pointer"
    if x is not None:
        node.box = (int(x), int(y), int(w), int(h))
    if tail is None or tail == ":":
        return depth, "node", node, "", None
    return depth, "node", node, "", quoted_value if quoted_value is not None else value


def _apply_attributes(node: Node, attributes: str, number: int) -> None:
    cursor = Cursor(attributes, number)
    for attribute in ATTRIBUTE.finditer(attributes):
        key, value = attribute.groups()
        apply_attribute(node, key, value if value is not None else "true", cursor)


def _attach(parent: Node, node: Node, value: str | None) -> None:
    node.parent = parent
    node.value = value
    node.in_frame = parent.in_frame or parent.role == "iframe"
    node.origin = parent.box[:2] if parent.role == "iframe" and parent.box else parent.origin
    if node.box is not None:
        # Boxes inside a frame are relative to it: shift them into the page's viewport.
        x, y, w, h = node.box
        node.box = (x + node.origin[0], y + node.origin[1], w, h)
    parent.children.append(node)
