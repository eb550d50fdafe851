"""Playwright's ai-mode snapshot text → a tree of `Node`s, with a real tokenizer.

The text is YAML-shaped: each line is `- KEY`, `- KEY: VALUE`, `- text: VALUE`
or `- /prop: VALUE`, indented two spaces a level. KEY is `role "name" [attr]…`
where the name is a JSON string, and the whole KEY is wrapped in YAML single
quotes when it holds `: `, ` #` and the like. Names and text come from the page,
so they are read token by token from the cursor, never searched for in the line: a page
naming a button `Go \\"x\\" [ref=e2]` gets that name, not a ref.
"""

from __future__ import annotations

import json
import re
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

    def walk(self) -> list[Node]:
        """This node and every node below it, in document order.

        With a stack, not recursion: joining each child's list into its
        parent's copies every node once per ancestor, and a page nests deep.
        """
        out: list[Node] = []
        stack: list[Node] = [self]
        pop, append, extend = stack.pop, out.append, stack.extend  # a big page's tree is walked often
        while stack:
            node = pop()
            append(node)
            if node.children:
                extend([child for child in reversed(node.children) if child.__class__ is Node])
        return out

    def ancestors(self) -> list[Node]:
        out = []
        node = self.parent
        while node is not None:
            out.append(node)
            node = node.parent
        return out


# Tokens, each matched only at the cursor: a name is one JSON string from its opening quote
# to the first unescaped closing quote, whatever it holds.
_IDENTIFIER = re.compile(r"[A-Za-z0-9_-]+")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_ATTRIBUTE = re.compile(r"\[([A-Za-z0-9_-]+)(?:=([^\]]*))?\]")
# The same grammar as a whole key at once (role, optional name, attributes, trailing spaces):
# one regex call per line instead of one per token (a third of the parse on a 20,000-line page).
# It reads exactly what the token patterns read; a key it cannot take whole goes token by token,
# which says where and why it is malformed.
_KEY = re.compile(
    rf"({_IDENTIFIER.pattern}) *({_JSON_STRING.pattern})?((?: *\[[A-Za-z0-9_-]+(?:=[^\]]*)?\])*) *"
)
_QUOTED_RUN = re.compile(r'[^"\\]+')


class _Cursor:
    """A position in one line, with the reads the grammar needs."""

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.pos = 0
        self.line = line

    def fail(self, what: str) -> SnapshotFormatError:
        return SnapshotFormatError(
            f"unexpected snapshot text at line {self.line}, column {self.pos}: {what}",
            "Playwright's snapshot format changed: pin the version in pyproject.toml",
        )

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def eof(self) -> bool:
        return self.pos >= len(self.text)

    def skip_spaces(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] == " ":
            pos += 1
        self.pos = pos

    def identifier(self) -> str:
        match = _IDENTIFIER.match(self.text, self.pos)
        if match is None:
            raise self.fail("expected a role or attribute name")
        self.pos = match.end()
        return match.group(0)

    def json_string(self) -> str:
        match = _JSON_STRING.match(self.text, self.pos)
        if match is None:
            raise self.fail("unterminated quoted name")
        try:
            value = json.loads(match.group(0))
        except ValueError as exc:
            raise self.fail(f"bad quoted name ({exc})") from exc
        self.pos = match.end()
        return str(value)

    def attribute(self) -> tuple[str, str]:
        match = _ATTRIBUTE.match(self.text, self.pos)
        if match is None:
            raise self.fail("expected [name] or [name=value]")
        self.pos = match.end()
        return match.group(1), match.group(2) if match.group(2) is not None else "true"


_YAML_ESCAPES = {"\\": "\\", '"': '"', "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "/": "/"}


def yaml_double_quoted(cursor: _Cursor) -> str:
    """A YAML double-quoted scalar, as Playwright writes them."""
    out: list[str] = []
    cursor.pos += 1
    text = cursor.text
    while not cursor.eof():
        run = _QUOTED_RUN.match(text, cursor.pos)
        if run is not None:  # plain characters up to the next quote or escape, in one step
            out.append(run.group(0))
            cursor.pos = run.end()
            continue
        char = text[cursor.pos]
        if char == '"':
            cursor.pos += 1
            return "".join(out)
        code = text[cursor.pos + 1 : cursor.pos + 2]
        if code in _YAML_ESCAPES:
            out.append(_YAML_ESCAPES[code])
            cursor.pos += 2
        elif code in ("x", "u"):
            width = 2 if code == "x" else 4
            digits = text[cursor.pos + 2 : cursor.pos + 2 + width]
            try:
                out.append(chr(int(digits, 16)))
            except ValueError as exc:
                raise cursor.fail("bad escape") from exc
            cursor.pos += 2 + width
        else:
            raise cursor.fail(f"unknown escape \\{code}")
    raise cursor.fail("unterminated quoted value")


def yaml_single_quoted(cursor: _Cursor) -> str:
    out: list[str] = []
    cursor.pos += 1
    text = cursor.text
    while not cursor.eof():
        char = text[cursor.pos]
        if char == "'":
            if text[cursor.pos + 1 : cursor.pos + 2] == "'":
                out.append("'")
                cursor.pos += 2
                continue
            cursor.pos += 1
            return "".join(out)
        out.append(char)
        cursor.pos += 1
    raise cursor.fail("unterminated single-quoted key")


def yaml_value(cursor: _Cursor) -> str:
    """The rest of the line as a YAML scalar: quoted, or plain to the end."""
    if cursor.peek() == '"':
        value = yaml_double_quoted(cursor)
    elif cursor.peek() == "'":
        value = yaml_single_quoted(cursor)
    else:
        value = cursor.text[cursor.pos :]
        cursor.pos = len(cursor.text)
    if not cursor.eof():
        raise cursor.fail("text after a quoted value")
    return value


def parse_key(cursor: _Cursor) -> Node:
    """`role "name" [attr] [attr=value]…` from the cursor's position."""
    whole = _KEY.match(cursor.text, cursor.pos)
    if whole is None or cursor.text[whole.end() : whole.end() + 1] in ('"', "["):
        return _parse_key_by_token(cursor)  # malformed: the token reader says where and how
    role, quoted, attributes = whole.groups()
    node = Node(role=role)
    if quoted is not None:
        cursor.pos = whole.start(2)
        node.name = cursor.json_string()
    for attribute in _ATTRIBUTE.finditer(attributes):
        key, value = attribute.groups()
        _apply_attribute(node, key, value if value is not None else "true", cursor)
    cursor.pos = whole.end()
    return node


def _parse_key_by_token(cursor: _Cursor) -> Node:
    node = Node(role=cursor.identifier())
    cursor.skip_spaces()
    if cursor.peek() == '"':
        node.name = cursor.json_string()
    while True:
        cursor.skip_spaces()
        if cursor.peek() != "[":
            return node
        key, value = cursor.attribute()
        _apply_attribute(node, key, value, cursor)


def _apply_attribute(node: Node, key: str, value: str, cursor: _Cursor) -> None:
    if key == "ref":
        node.pw_ref = value
    elif key == "cursor":
        node.pointer = value == "pointer"
    elif key == "box":
        try:
            x, y, w, h = map(round, map(float, value.split(",")))
        except ValueError as exc:
            raise cursor.fail(f"bad box {value!r}") from exc
        node.box = (x, y, w, h)
    else:
        node.attrs[key] = value


@dataclass(slots=True)
class _Line:
    depth: int
    kind: str  # "node", "text" or "prop"
    node: Node | None = None
    key: str = ""
    value: str | None = None


def tokenize_line(raw: str, number: int) -> _Line:
    stripped = raw.lstrip(" ")
    indent = len(raw) - len(stripped)
    cursor = _Cursor(stripped, number)
    if indent % 2 or not stripped.startswith("- "):
        raise cursor.fail("expected '- ' after an even indentation")
    cursor.pos = 2
    depth = indent // 2
    if stripped.startswith("text: ", 2) or stripped == "- text:":
        cursor.pos = 8
        return _Line(depth, "text", value=yaml_value(cursor) if not cursor.eof() else "")
    if cursor.peek() == "/":
        colon = stripped.find(": ", 2)
        if colon < 0:
            raise cursor.fail("a property without a value")
        cursor.pos = colon + 2
        return _Line(depth, "prop", key=stripped[3:colon], value=yaml_value(cursor))
    return _Line(depth, "node", node=_node_line(cursor), value=_node_value(cursor))


def _node_line(cursor: _Cursor) -> Node:
    if cursor.peek() != "'":
        return parse_key(cursor)
    key = _Cursor(yaml_single_quoted(cursor), cursor.line)
    node = parse_key(key)
    if not key.eof():
        raise key.fail("text after the attributes")
    return node


def _node_value(cursor: _Cursor) -> str | None:
    """After the key: nothing, `:` (children follow) or `: value`."""
    if cursor.eof():
        return None
    if cursor.text[cursor.pos :] == ":":
        cursor.pos += 1
        return None
    if cursor.text.startswith(": ", cursor.pos):
        cursor.pos += 2
        return yaml_value(cursor)
    raise cursor.fail("expected ':' or the end of the line")


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
            raise _Cursor(raw, number).fail("indented deeper than its parent")
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
    cursor = _Cursor(attributes, number)
    for attribute in _ATTRIBUTE.finditer(attributes):
        key, value = attribute.groups()
        _apply_attribute(node, key, value if value is not None else "true", cursor)


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
