"""The kinds of value an argument or flag takes, and how each is checked and parsed.

Standard library only, no `re`: the CLI checks every value here before it
contacts (or starts) a daemon, and the daemon parses the same values again
here so that handlers receive them ready to use. A kind is a plain literal:

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

SELECTOR_STARTS = ("@", ".", "#", "[")
SELECTOR_ENGINES = ("text", "role", "css", "xpath", "id", "data-testid", "internal:role", "internal:text")
# Elements one names by their tag alone (`screenshot main`), or followed by `.`, `#`, `[`, `:`, `>`
# or a space (`div.card`, `li:nth-child(2)`), unless it ends as a file does.
_TAG_WORDS = (  # words, not commands, though some are spelled alike
    "a article aside audio blockquote body button canvas code dd details dialog div dl dt fieldset "
    "figure footer form h1 h2 h3 h4 h5 h6 header hr html iframe img input label legend li main menu "
    "nav ol option output p picture pre progress section select span summary svg table tbody td "
    "textarea tfoot th thead tr ul video"
)
HTML_TAGS = frozenset(_TAG_WORDS.split())
_AFTER_TAG = ".#[:> "
_FILE_ENDINGS = (".out", ".txt", ".json", ".html", ".md", ".log", ".zip", ".har", ".yml", ".yaml", ".webm")
LOADABLE_SCHEMES = ("http", "https", "file", "about", "data")
NEVER_HOSTS = ("javascript", "chrome", "devtools", "view-source", "chrome-extension", "data", "file")
MODIFIERS = ("Shift", "Control", "Alt", "Meta", "ControlOrMeta")

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
    "N": ("int", 0, None),
    "MS": ("int", 0, None),
    "WxH": "size",
    "X,Y,W,H": "box",
}

# A selector that is one bare word names an element type. Custom elements
# always contain a hyphen, so a bare word outside this list is a mistake
# (`wait soon`, `click buton`) rather than a selector.
_TAG_NAMES = (
    "a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption"
    " center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed"
    " fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup"
    " hr html i iframe img input ins kbd label legend li link main map mark marquee menu meta meter"
    " nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp"
    " script search section select slot small source span strong style sub summary sup table tbody"
    " td template textarea tfoot th thead time title tr track tt u ul var video wbr"
    " svg g path circle rect line polyline polygon ellipse text tspan use defs symbol image"
    " foreignObject clipPath mask pattern marker filter linearGradient radialGradient stop math"
)
HTML_TAGS = frozenset(_TAG_NAMES.split())


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
        return bool(colon) and scheme.lower() in LOADABLE_SCHEMES
    if kind == "sel":
        return looks_like_selector(value)
    return True


def looks_like_selector(value: str) -> bool:
    """`.main`, `#id`, `@e3`, `[name=q]`, a bare tag (`h1`, `main`, `form > input`) and
    `text=Save` are selectors, as `click` takes them; `./x.png`, `../../x.png` and `.shots/a.png`
    start like one but are paths, and so is a word with a file's ending (`a.png`, `notes.txt`)."""
    if value.startswith(("@", "[")):
        return True
    if looks_like_path(value):
        return False
    if value.startswith(SELECTOR_STARTS) or value.split("=", 1)[0] in SELECTOR_ENGINES:
        return True
    end = next((i for i, c in enumerate(value) if c in _AFTER_TAG), len(value))
    if value[:end].lower() not in HTML_TAGS:
        return False
    return not value.lower().endswith(_FILE_ENDINGS)  # `div.card` is an element, `a.out` a file


def looks_like_path(value: str) -> bool:
    return "/" in value or value.lower().endswith((".png", ".jpg", ".jpeg", ".webp", ".pdf"))


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


def _url(value: str, label: str) -> str:
    """A loadable URL: known schemes pass, a bare host gets https (http when local)."""
    url = value.strip()
    if not url:
        raise UsageError(f"{label} takes a URL, got nothing", "for example: https://example.com/")
    scheme, colon, rest = url.partition(":")
    scheme = scheme.lower()
    is_scheme = (
        bool(colon)
        and scheme[:1].isalpha()
        and scheme.replace("+", "").replace(".", "").replace("-", "").isalnum()
    )
    # "localhost:3000" is a host and port, not a scheme; "javascript:1" is never a host.
    if is_scheme and (scheme in NEVER_HOSTS or not rest[:1].isdigit()):
        if scheme not in LOADABLE_SCHEMES:
            raise UsageError(
                f"cannot load {scheme}: URLs", f"{label} takes {', '.join(LOADABLE_SCHEMES)} URLs"
            )
        return url
    return ("http://" if _is_local(url) else "https://") + url


def _is_local(url: str) -> bool:
    if url.startswith("[::1]"):
        return True
    host = url
    for stop in ":/?#":
        host = host.partition(stop)[0]
    dotted = host.replace(".", "")
    local = ("localhost", "0.0.0.0")  # noqa: S104 - names compared, nothing bound
    return host in local or (host.startswith("127.") and dotted.isdigit())


def _endpoint(value: str, label: str) -> str:
    if not value.startswith(("http://", "https://", "ws://", "wss://")) or value[-3:] == "://":
        raise UsageError(
            f"{label} takes a DevTools address, got {value!r}", "for example: http://127.0.0.1:9222 or ws://…"
        )
    return value


def _selector(value: str, label: str) -> str:
    if not value.strip():
        raise UsageError(
            f"{label} takes a selector, got nothing", "for example: #submit, or @e3 from `browse snapshot`"
        )
    if value.startswith("@"):
        if not _is_ref(value[1:]):
            raise UsageError(
                f"{value} is not a ref: refs look like @e3 or @c2",
                "take one from `browse snapshot` (or `snapshot -C` for @c refs)",
            )
    elif value.isalnum() and value.lower() not in HTML_TAGS and value not in HTML_TAGS and not _is_ref(value):
        raise UsageError(
            f"{label} {value!r} is neither a ref nor a CSS selector of a known element",
            "for example: @e3, #id, .class, button, [name=q]",
        )
    return value


def _place(value: str, label: str) -> str | tuple[str, float, float]:
    """A selector, or two numbers: signed (`+40,-10`) for an offset, bare (`300,120`) for a point."""
    parts = value.replace(" ", "").split(",")
    if len(parts) != 2 or not all(_numeric(part) for part in parts):
        return _selector(value, label)
    x, y = float(parts[0]), float(parts[1])
    if any(part[:1] in "+-" for part in parts):
        return ("offset", x, y)
    return ("point", x, y)


def _numeric(text: str) -> bool:
    digits = text[1:] if text[:1] in "+-" else text
    return bool(digits) and digits.replace(".", "", 1).isdigit()


def _is_ref(text: str) -> bool:
    """e3 or c2 (after an @ or a ref=, or bare): what `browse snapshot` prints."""
    kind, number = text[:1], text[1:]
    return kind in ("e", "c") and number.isdigit() and not number.startswith("0")


def _key(value: str, label: str) -> str:
    *modifiers, key = value.split("+") if value != "+" else [value]
    if not key and value.endswith("++"):
        key = "+"  # Control++ presses Control and +
        modifiers = modifiers[:-1]
    unknown = [m for m in modifiers if m not in MODIFIERS]
    if unknown or not key or not (len(key) == 1 or (key[:1].isupper() and key.isalnum())):
        raise UsageError(
            f"{label}: {value!r} is not a key name or chord",
            "for example: Enter, Tab, ArrowDown, a, Control+A (modifiers: Shift, Control, Alt, Meta)",
        )
    return value


def _one_key(value: str, label: str) -> str:
    """One key, held or released on its own (`keydown Shift`): a chord is two keys."""
    if "+" in value.strip("+") or value.endswith("++"):
        raise UsageError(
            f"{label}: {value!r} is a chord; this takes one key",
            "hold each key in turn (keydown Shift, then keydown A), or press the chord with `press Shift+A`",
        )
    return _key(value, label)


def _json(value: str, label: str) -> object:
    import json

    try:
        return json.loads(value)
    except ValueError as exc:
        raise UsageError(f"{label} is not JSON: {exc}", "for example: '{\"a\": 1}'") from exc


def _pair(value: str, label: str, parts: int, example: str) -> tuple[int, ...]:
    separator = "," if parts == 4 else ("×" if "×" in value else "x")
    words = value.strip().split(separator)
    if len(words) != parts or not all(w.strip().isdigit() for w in words):
        raise UsageError(
            f"{label} takes {example.split()[0]}, got {value!r}", f"for example: {example.split()[1]}"
        )
    return tuple(int(w) for w in words)


def _size(value: str, label: str) -> tuple[int, ...]:
    size = _pair(value, label, 2, "WIDTHxHEIGHT 1280x800")
    if not all(10 <= side <= 99_999 for side in size):
        raise UsageError(
            f"{label} {value}: each side must be from 10 to 99999 pixels", "for example: 1280x800"
        )
    return size


def _box(value: str, label: str) -> tuple[float, ...]:
    try:
        box = tuple(float(part) for part in value.split(","))
    except ValueError:
        box = ()
    if len(box) != 4:
        raise UsageError(f"{label} takes X,Y,W,H in CSS pixels, got {value!r}", "for example: 0,0,800,600")
    if box[2] <= 0 or box[3] <= 0 or box[0] < 0 or box[1] < 0:
        raise UsageError(f"{label} {value}: the region must have a positive size", "for example: 0,0,800,600")
    return box


def _text(value: str, label: str) -> str:
    return value


def _words(value: str, label: str) -> str:
    if not value.strip():
        raise UsageError(f"{label} is empty", f"give {label.split()[-1]} some text")
    return value


def _path(value: str, label: str) -> str:
    if "\0" in value:
        raise UsageError(
            f"{label} is not a file path: it holds a NUL character", "give the file's path as it is"
        )
    return os.path.abspath(value)


# A header name is an RFC 9110 token: these characters and letters and digits.
_TOKEN_MARKS = "!#$%&'*+-.^_`|~"  # noqa: S105 - characters, not a secret


def _header_name(value: str, label: str) -> str:
    if not value or not all(c.isalnum() or c in _TOKEN_MARKS for c in value):
        raise UsageError(f"{label}: {value!r} is not a header name", "give NAME and VALUE as two words")
    return value


def _header(value: str, label: str) -> tuple[str, str]:
    name, colon, rest = value.partition(":")
    name = name.strip()
    if not colon or not name or not all(c.isalnum() or c in _TOKEN_MARKS for c in name):
        raise UsageError(
            f"{label} takes NAME:VALUE with a header name before the colon, got {value!r}",
            "for example: --header 'Cache-Control: no-store'",
        )
    if "\n" in rest or "\r" in rest:
        raise UsageError(f"{label}: a header value cannot hold a line break", "give the value on one line")
    return name, rest.strip()


def _timezone(value: str, label: str) -> str:
    if value.lower() == "off":
        return "off"
    import zoneinfo  # only for this kind: not on any other command's path

    try:
        zoneinfo.ZoneInfo(value)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        if not zoneinfo.available_timezones():
            return value  # no time zone database here to check against: the browser checks it
        raise UsageError(
            f"{label}: {value!r} is not a time zone name", "for example: Europe/Paris, America/New_York, UTC"
        ) from None
    return value


def _locale(value: str, label: str) -> str:
    if value.lower() == "off":
        return "off"
    parts = value.replace("_", "-").split("-")
    if not (parts[0].isalpha() and 2 <= len(parts[0]) <= 3 and all(p.isalnum() and p for p in parts)):
        raise UsageError(f"{label}: {value!r} is not a language tag", "for example: de-DE, fr, pt-BR")
    return "-".join(parts)


_SIMPLE = {
    "url": _url,
    "endpoint": _endpoint,
    "sel": _selector,
    "place": _place,
    "path": _path,
    "key": _key,
    "onekey": _one_key,
    "json": _json,
    "text": _text,
    "words": _words,
    "header_name": _header_name,
    "rest": _text,
    "size": _size,
    "box": _box,
    "header": _header,
    "timezone": _timezone,
    "locale": _locale,
}
