"""The little JSON the CLI's warm path writes and reads, without the json module.

Shared by both processes (the daemon writes `daemon.json` with it).

`import json` brings `re`, `enum` and `functools` with it: about half of the
CLI's start-up cost. The CLI only ever encodes its request (strings, numbers,
booleans, None, flat lists and dicts) and decodes `daemon.json` (a flat object
the daemon writes), so both are done here in a few lines, and tests check them
against the json module.
"""

from __future__ import annotations

_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)} | {
    ord('"'): '\\"',
    ord("\\"): "\\\\",
    ord("\n"): "\\n",
    ord("\t"): "\\t",
}


def dumps(value: object) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(dumps(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_quote(str(k))}: {dumps(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot encode {type(value).__name__}")


def _quote(text: str) -> str:
    escaped = text.translate(_ESCAPES)
    if not escaped.isascii():
        # Lone surrogates (undecodable bytes in argv) cannot be UTF-8 encoded: escape them.
        escaped = "".join(f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c for c in escaped)
    return f'"{escaped}"'


_UNESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS: dict[str, object] = {"true": True, "false": False, "null": None}


def loads_flat_object(text: str) -> dict[str, object]:
    """Decode a JSON object whose values are strings, numbers, booleans or null."""
    reader = _Reader(text)
    return reader.flat_object()


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text.strip()
        self.pos = 0

    def flat_object(self) -> dict[str, object]:
        self._expect("{")
        result: dict[str, object] = {}
        while self._peek() != "}":
            key = self._string()
            self._expect(":")
            result[key] = self._value()
            if self._peek() == ",":
                self.pos += 1
        self._expect("}")
        if self.pos != len(self.text):
            raise ValueError("trailing text after the object")
        return result

    def _peek(self) -> str:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1
        if self.pos >= len(self.text):
            raise ValueError("unexpected end of text")
        return self.text[self.pos]

    def _expect(self, char: str) -> None:
        if self._peek() != char:
            raise ValueError(f"expected {char!r} at {self.pos}")
        self.pos += 1

    def _value(self) -> object:
        if self._peek() == '"':
            return self._string()
        end = self.pos
        while end < len(self.text) and self.text[end] not in ",} \t\r\n":
            end += 1
        word, self.pos = self.text[self.pos : end], end
        if word in _LITERALS:
            return _LITERALS[word]
        return float(word) if any(c in word for c in ".eE") else int(word)

    def _string(self) -> str:
        self._expect('"')
        out: list[str] = []
        text = self.text
        while True:
            char = text[self.pos]
            self.pos += 1
            if char == '"':
                # Join surrogate pairs (\ud83d\ude00) as json does.
                return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16")
            if char == "\\":
                code = text[self.pos]
                if code == "u":
                    out.append(chr(int(text[self.pos + 1 : self.pos + 5], 16)))
                    self.pos += 5
                else:
                    out.append(_UNESCAPES[code])
                    self.pos += 1
            else:
                out.append(char)
