"""The kinds of value an argument or flag takes, and how each is checked and parsed.

Standard library only, no `re`: the CLI checks every value here before it
contacts (or starts) a daemon, and the daemon parses the same values again
here so that handlers receive them ready to use. Every number has a range
(`bounds`). The kinds' parsers are in `selectors`, `web` and `values`.
A kind is a plain literal:

    "url"                  a loadable URL; a bare host gets https, a local one http
    "endpoint"             a remote browser's address: http(s):// or ws(s)://
    "sel"                  a CSS selector or a ref (@e3, @c2)
    "place"                where a drag ends: a selector or ref (as "sel"), a point X,Y in the
                           viewport -> ("point", x, y), or an offset +DX,-DY from where it
                           starts -> ("offset", dx, dy)
    "path"                 a file path, made absolute by the CLI
    "key"                  a key or chord: Enter, a, Control+A
    "onekey"               one key, no chord: Shift, a, Enter
    "json"                 a JSON value
    "text"                 any text
    "words"                text with something in it besides spaces
    "header_name"          an HTTP header's name (an RFC 9110 token)
    "rest"                 the rest of the line: every remaining word, joined by spaces
    "size"                 WIDTHxHEIGHT, e.g. 1280x800  -> (width, height)
    "box"                  X,Y,W,H in CSS pixels         -> (x, y, w, h)
    "header"               NAME:VALUE, an HTTP header    -> (name, value)
    "timezone"             an IANA time zone (Europe/Paris), or off
    "locale"               a BCP 47 language tag (de-DE, pt-BR), or off
    ("int", LO, HI)        a whole number, bounds inclusive, None for unbounded
    ("number", LO, HI)     a decimal number, bounds inclusive
    ("enum", WORD, ...)    one of the words
    ("alt", KIND, ...)     the first kind the value looks like (see `_looks_like`)

An argument's kind is inferred from its name (see `infer`) unless the
command's `kinds` entry names it; a flag's from its metavar.
"""

from __future__ import annotations

import os

from refbrowse.errors import UsageError
from refbrowse.kinds import selectors, values, web
from refbrowse.kinds.bounds import MAX_COUNT, MAX_MS
from refbrowse.kinds.selectors import (
    HTML_TAGS,
    SELECTOR_ENGINES,
    SELECTOR_STARTS,
    looks_like_path,
    looks_like_selector,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import Kind

# Each simple kind in words: for `browse help CMD`, and shorter for an MCP tool's schema ("": none).
KIND_WORDS: dict[str, tuple[str, str]] = {
    "url": ("a URL: http, https, about or data (a bare host gets https)", ""),
    "endpoint": ("a DevTools address: http://host:9222 or ws://…", "http(s):// or ws(s):// address"),
    "sel": (
        "a ref from `browse snapshot` or `find` (@e3, @c2), a CSS selector (#save), text (text=Sign in) or a "
        'role (role=button[name="Save"]); one that matches several elements lists them with refs',
        "@eN ref or selector",
    ),
    "place": (
        "an element to drop onto (selector or ref), a point X,Y, or an offset +DX,+DY (- is left, up)",
        "@eN ref or CSS selector, a point X,Y, or an offset +DX,+DY",
    ),
    "path": ("a file path, relative to where you run browse", "file path"),
    "key": ("a key or chord: Enter, Tab, ArrowDown, a, Control+A", "key or chord: Enter, Tab, Control+A"),
    "onekey": ("one key: Shift, Control, a, Enter", ""),
    "json": ("a JSON value", "JSON value"),
    "text": ("text (quote it when it has spaces)", ""),
    "rest": ("the rest of the line (no quotes needed)", ""),
    "words": ("text, not empty (quote it when it has spaces)", ""),
    "header_name": ("an HTTP header's name, e.g. X-Debug", ""),
    "size": ("WIDTHxHEIGHT in CSS pixels, e.g. 1280x800", "WIDTHxHEIGHT, e.g. 1280x800"),
    "box": ("X,Y,W,H in CSS pixels", "X,Y,W,H in CSS pixels"),
    "header": ("NAME:VALUE, e.g. 'Cache-Control: no-store'", ""),
    "timezone": ("an IANA time zone such as Europe/Paris, or off", ""),
    "locale": ("a language tag such as de-DE, or off", ""),
}

_BY_NAME: dict[str, Kind] = {
    "URL": "url",
    "URL1": "url",
    "URL2": "url",
    "SEL": "sel",
    "PATH": "path",
    "FILE": "path",
    "PREFIX": "path",
    "DIR": "path",
    "KEY": "key",
    "JSON": "json",
    "N": ("int", 0, MAX_COUNT),
    "MS": ("int", 0, MAX_MS),
    "WxH": "size",
    "X,Y,W,H": "box",
}


def infer(name: str) -> Kind:
    """The kind an argument or metavar name implies: `SEL|MS` is either, anything unknown is text."""
    if "|" in name:
        return ("alt", *(infer(part) for part in name.split("|")))
    return _BY_NAME.get(name, "text")


def parse_value(kind: Kind, value: str, label: str) -> object:
    """The value parsed by its kind; `UsageError` (exit 2) names `label` when it does not fit."""
    if isinstance(kind, str):
        return _SIMPLE[kind](value, label)
    head = kind[0]
    if head == "alt":
        return parse_value(_pick(kind[1:], value), value, label)
    if head == "enum":
        words = [str(word) for word in kind[1:]]
        if value.lower() not in words:
            raise UsageError(
                f"{label} takes one of {', '.join(words)}; got {value!r}", f"for example: {words[0]}"
            )
        return value.lower()
    low, high = kind[1], kind[2]
    number: float = _whole(value, label, low) if head == "int" else _decimal(value, label)
    if (low is not None and number < low) or (high is not None and number > high):
        raise UsageError(f"{label} must be {_range(low, high)}, got {value}", f"for example: {low or 1}")
    return number


def wire_form(kind: Kind, value: str) -> str:
    """What the CLI sends for a checked value: paths absolute (the daemon has another cwd), else as typed."""
    if kind == "path" or (isinstance(kind, tuple) and kind[0] == "alt" and _pick(kind[1:], value) == "path"):
        return os.path.abspath(value)
    return value


def _pick(alternatives: tuple[object, ...], value: str) -> Kind:
    """The alternative a value is: a number if it is digits, a URL if it has a scheme, a
    selector if it starts like one, else the last and loosest."""
    kinds: list[Kind] = sorted((k for k in alternatives if isinstance(k, str | tuple)), key=_strictness)
    for kind in kinds[:-1]:
        if _looks_like(kind, value):
            return kind
    return kinds[-1]


def _strictness(kind: Kind) -> int:
    return 0 if isinstance(kind, tuple) else {"url": 1, "sel": 2}.get(kind, 3)


def _looks_like(kind: Kind, value: str) -> bool:
    if isinstance(kind, tuple):
        if kind[0] == "enum":
            return value.lower() in kind[1:]
        return kind[0] == "int" and value.isdigit()
    if kind == "url":
        scheme, colon, _ = value.partition(":")
        return bool(colon) and scheme.lower() in web.LOADABLE_SCHEMES
    if kind == "sel":
        return looks_like_selector(value)
    return True


def _range(low: float | None, high: float | None) -> str:
    if high is None:
        return f"at least {low}"
    if low is None:
        return f"at most {high}"
    return f"from {low} to {high}"


def _whole(value: str, label: str, low: float | None) -> int:
    text = value.strip()
    if not text.lstrip("-").isdigit():
        what = "a positive whole number" if low is not None and low >= 1 else "a whole number"
        raise UsageError(f"{label} takes {what}, got {value!r}", "for example: 3")
    return int(text)


def _decimal(value: str, label: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if number != number or number in (float("inf"), float("-inf")):
        raise UsageError(f"{label} takes a number, got {value!r}", "for example: 2")
    return number


_SIMPLE = {
    "url": web.url,
    "endpoint": web.endpoint,
    "sel": selectors.selector,
    "place": selectors.place,
    "path": values.path,
    "key": values.key,
    "onekey": values.one_key,
    "json": values.json_value,
    "text": values.text,
    "words": values.words,
    "header_name": web.header_name,
    "rest": values.text,
    "size": values.size,
    "box": values.box,
    "header": web.header,
    "timezone": web.timezone,
    "locale": web.locale,
}

__all__ = [
    "HTML_TAGS",
    "KIND_WORDS",
    "SELECTOR_ENGINES",
    "SELECTOR_STARTS",
    "infer",
    "looks_like_path",
    "looks_like_selector",
    "parse_value",
    "wire_form",
]
