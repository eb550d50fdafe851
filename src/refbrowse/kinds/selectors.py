"""Selectors and refs: what names an element, and where a drag ends (an element or a point)."""

from __future__ import annotations

from refbrowse.errors import UsageError
from refbrowse.kinds.bounds import MAX_PIXELS

SELECTOR_STARTS = ("@", ".", "#", "[")
SELECTOR_ENGINES = ("text", "role", "css", "xpath", "id", "data-testid", "internal:role", "internal:text")
# A tag name followed by one of these (`div.card`, `li:nth-child(2)`, `form > input`) is a selector,
# unless it ends as a file does.
_AFTER_TAG = ".#[:> "
_FILE_ENDINGS = (".out", ".txt", ".json", ".html", ".md", ".log", ".zip", ".har", ".yml", ".yaml", ".webm")

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


def selector(value: str, label: str) -> str:
    if not value.strip():
        raise UsageError(
            f"{label} takes a selector, got nothing", "for example: #submit, or @e3 from `browse snapshot`"
        )
    if value.startswith("@"):
        if not is_ref(value[1:]):
            raise UsageError(
                f"{value} is not a ref: refs look like @e3 or @c2",
                "take one from `browse snapshot` (or `snapshot -C` for @c refs)",
            )
    elif value.isalnum() and value.lower() not in HTML_TAGS and value not in HTML_TAGS and not is_ref(value):
        raise UsageError(
            f"{label} {value!r} is neither a ref nor a CSS selector of a known element",
            "for example: @e3, #id, .class, button, [name=q]",
        )
    return value


def place(value: str, label: str) -> str | tuple[str, float, float]:
    """A selector, or two numbers: signed (`+40,-10`) for an offset, bare (`300,120`) for a point."""
    parts = value.replace(" ", "").split(",")
    if len(parts) != 2 or not all(_numeric(part) for part in parts):
        return selector(value, label)
    x, y = float(parts[0]), float(parts[1])
    if max(abs(x), abs(y)) > MAX_PIXELS:
        raise UsageError(
            f"{label} {value}: each number must be at most {MAX_PIXELS} pixels",
            "for example: +40,0 or 300,120",
        )
    if any(part[:1] in "+-" for part in parts):
        return ("offset", x, y)
    return ("point", x, y)


def _numeric(text: str) -> bool:
    digits = text[1:] if text[:1] in "+-" else text
    return bool(digits) and digits.replace(".", "", 1).isdigit()


def is_ref(text: str) -> bool:
    """e3 or c2 (after an @ or a ref=, or bare): what `browse snapshot` prints."""
    kind, number = text[:1], text[1:]
    return kind in ("e", "c") and number.isdigit() and not number.startswith("0")
