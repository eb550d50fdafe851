"""The token reader of Playwright's ai snapshot lines: every line can be read this way.

Names and text come from the page, so they are read token by token from a
cursor, never searched for in the line: a page naming a button
`Go \\"x\\" [ref=e2]` gets that name, not a ref. `parse` reads most lines whole
with one pattern and hands the rest here, which also says where a line is
malformed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from refbrowse.daemon.page.snapshot.tree import Node, SnapshotFormatError

# Tokens, each matched only at the cursor: a name is one JSON string from its opening quote
# to the first unescaped closing quote, whatever it holds.
_IDENTIFIER = re.compile(r"[A-Za-z0-9_-]+")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
ATTRIBUTE = re.compile(r"\[([A-Za-z0-9_-]+)(?:=([^\]]*))?\]")
# The same grammar as a whole key at once (role, optional name, attributes, trailing spaces):
# one regex call per line instead of one per token (a third of the parse on a 20,000-line page).
# It reads exactly what the token patterns read; a key it cannot take whole goes token by token,
# which says where and why it is malformed.
_KEY = re.compile(
    rf"({_IDENTIFIER.pattern}) *({_JSON_STRING.pattern})?((?: *\[[A-Za-z0-9_-]+(?:=[^\]]*)?\])*) *"
)
_QUOTED_RUN = re.compile(r'[^"\\]+')


class Cursor:
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
        match = ATTRIBUTE.match(self.text, self.pos)
        if match is None:
            raise self.fail("expected [name] or [name=value]")
        self.pos = match.end()
        return match.group(1), match.group(2) if match.group(2) is not None else "true"


_YAML_ESCAPES = {"\\": "\\", '"': '"', "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "/": "/"}


def yaml_double_quoted(cursor: Cursor) -> str:
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


def yaml_single_quoted(cursor: Cursor) -> str:
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


def yaml_value(cursor: Cursor) -> str:
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


def parse_key(cursor: Cursor) -> Node:
    """`role "name" [attr] [attr=value]…` from the cursor's position."""
    whole = _KEY.match(cursor.text, cursor.pos)
    if whole is None or cursor.text[whole.end() : whole.end() + 1] in ('"', "["):
        return _parse_key_by_token(cursor)  # malformed: the token reader says where and how
    role, quoted, attributes = whole.groups()
    node = Node(role=role)
    if quoted is not None:
        cursor.pos = whole.start(2)
        node.name = cursor.json_string()
    for attribute in ATTRIBUTE.finditer(attributes):
        key, value = attribute.groups()
        apply_attribute(node, key, value if value is not None else "true", cursor)
    cursor.pos = whole.end()
    return node


def _parse_key_by_token(cursor: Cursor) -> Node:
    node = Node(role=cursor.identifier())
    cursor.skip_spaces()
    if cursor.peek() == '"':
        node.name = cursor.json_string()
    while True:
        cursor.skip_spaces()
        if cursor.peek() != "[":
            return node
        key, value = cursor.attribute()
        apply_attribute(node, key, value, cursor)


def apply_attribute(node: Node, key: str, value: str, cursor: Cursor) -> None:
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
    cursor = Cursor(stripped, number)
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


def _node_line(cursor: Cursor) -> Node:
    if cursor.peek() != "'":
        return parse_key(cursor)
    key = Cursor(yaml_single_quoted(cursor), cursor.line)
    node = parse_key(key)
    if not key.eof():
        raise key.fail("text after the attributes")
    return node


def _node_value(cursor: Cursor) -> str | None:
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
