"""A HAR file copied entry by entry: never parsed whole.

Playwright writes `{"log":{…,"entries":[…]}}`; parsed whole, a 17 MB file of
5,000 entries took the daemon from ~100 to ~470 MB, and Python's allocator
kept most of it after. Here the file is read in pieces: every member of `log`
but `entries` is decoded alone (they are small), and the entries one at a time,
each scrubbed (`redaction.har_entry`) and written before the next is read. The
memory held is one piece of the file and one entry, whatever the file's size.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, TextIO

CHUNK = 1 << 18  # characters read at a time; an entry larger than this is read in growing pieces
_SPACE = " \t\r\n"


class _Reader:
    """JSON values out of a text file, a piece at a time."""

    def __init__(self, source: TextIO) -> None:
        self.source = source
        self.text = ""
        self.at = 0
        self.ended = False
        self.decoder = json.JSONDecoder()

    def _more(self) -> bool:
        """Read on (as much again as is held, so a huge value is not decoded over and over)."""
        if self.ended:
            return False
        piece = self.source.read(max(CHUNK, len(self.text) - self.at))
        self.ended = not piece
        self.text, self.at = self.text[self.at :] + piece, 0
        return bool(piece)

    def peek(self) -> str:
        """The next character that is not white space ("" at the end), not taken."""
        while True:
            while self.at < len(self.text) and self.text[self.at] in _SPACE:
                self.at += 1
            if self.at < len(self.text):
                return self.text[self.at]
            if not self._more():
                return ""

    def take(self, char: str) -> None:
        if self.peek() != char:
            raise ValueError(f"not a HAR file: {char!r} expected, found {self.peek()!r}")
        self.at += 1

    def value(self) -> Any:
        """The next JSON value, read whole (a number or value that ends the piece is read on first)."""
        self.peek()
        while True:
            try:
                found, end = self.decoder.raw_decode(self.text, self.at)
            except json.JSONDecodeError:
                if not self._more():
                    raise
                continue
            if end < len(self.text) or not self._more():
                self.at = end
                return found

    def members(self) -> Iterator[str]:
        """The keys of the object that starts here, each left for its value to be read."""
        self.take("{")
        while self.peek() != "}":
            key = self.value()
            if not isinstance(key, str):
                raise ValueError("not a HAR file: an object's key is not a string")
            self.take(":")
            yield key
            if self.peek() == ",":
                self.at += 1
        self.take("}")

    def items(self) -> Iterator[Any]:
        """The values of the array that starts here, one at a time."""
        self.take("[")
        while self.peek() != "]":
            yield self.value()
            if self.peek() == ",":
                self.at += 1
        self.take("]")


def copy(
    source: TextIO,
    out: TextIO,
    entry: Callable[[dict[str, Any]], dict[str, Any]],
    other: Callable[[Any], Any],
    most: int,
) -> int:
    """`source`'s HAR written to `out`: its first `most` entries through `entry`, every other member
    of `log` through `other`. How many entries `source` held."""
    reader, held = _Reader(source), 0
    out.write("{")
    for n, key in enumerate(reader.members()):
        out.write(f"{',' if n else ''}\n{json.dumps(key)}: ")
        if key != "log":
            out.write(json.dumps(other(reader.value()), ensure_ascii=False))
            continue
        out.write("{")
        for m, inner in enumerate(reader.members()):
            out.write(f"{',' if m else ''}\n  {json.dumps(inner)}: ")
            if inner != "entries":
                out.write(json.dumps(other(reader.value()), ensure_ascii=False))
                continue
            out.write("[")
            for item in reader.items():
                if held < most:
                    out.write(f"{',' if held else ''}\n    {json.dumps(entry(item), ensure_ascii=False)}")
                held += 1
            out.write("\n  ]")
        out.write("\n}")
    out.write("\n}\n")
    if reader.peek():
        raise ValueError("not a HAR file: more after its end")
    return held
