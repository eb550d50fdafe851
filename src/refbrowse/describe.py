"""Words about each command, from the registry: its arguments, defaults and an example.

`browse help CMD`, `browse CMD --help` and docs/COMMANDS.md all say the same
thing because they all come from here. Standard library only.
"""

from __future__ import annotations

from refbrowse.kinds import KIND_WORDS
from refbrowse.parse import arg_kind, flag_kind, repeated_group, usage_line
from refbrowse.registry import COMMANDS, DEFAULTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import Kind


# A value that works when pasted, for the names that have an obvious one.
_SAMPLES = {
    "URL": "https://example.com/",
    "URL1": "https://example.com/",
    "URL2": "https://example.org/",
    "SEL": "@e3",
    "PATH": "page.png",
    "FILE": "cookies.json",
    "PREFIX": "shots/home",
    "DIR": "shots",
    "KEY": "Enter",
    "TEXT": '"hello world"',
    "VALUE": "blue",
    "EXPR": "document.title",
    "PROP": "color",
    "NAME": "alice",
    "UA": '"MyBot/1.0"',
    "CMD": "goto",
    "REASON": '"solve the captcha"',
    "N": "2",
    "MS": "500",
    "WxH": "1280x800",
    "JSON": "'{\"a\": 1}'",
}


def kind_words(kind: Kind) -> str:
    """What a value of `kind` is, in a few words."""
    if isinstance(kind, str):
        return KIND_WORDS[kind][0] if kind in KIND_WORDS else kind
    head, rest = kind[0], kind[1:]
    if head == "alt":
        return "; or ".join(kind_words(k) for k in rest)
    if head == "enum":
        return "one of " + ", ".join(str(word) for word in rest)
    low, high = rest[0], rest[1]
    what = "a whole number" if head == "int" else "a number"
    if low is not None and high is not None:
        return f"{what} from {_number(low)} to {_number(high)}"
    return f"{what} of at least {_number(low)}" if low is not None else what


def _number(value: float) -> str:
    """A bound as one types it: 3600000, not 3.6e+06."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def argument_rows(name: str) -> list[tuple[str, str]]:
    spec = COMMANDS[name]
    rows = []
    forms = spec.get("forms")
    # a command with forms: its first word, then each form's arguments once
    shown = (
        [spec["args"][0], *dict.fromkeys(a for names in forms.values() for a in names)]
        if forms
        else spec["args"]
    )
    for arg in shown:
        group = repeated_group((arg,))
        words = f"{' '.join(group)} again, as often as needed" if group else kind_words(arg_kind(spec, arg))
        if spec.get("stdin_arg") == arg.strip("[]."):
            words += "; `-` reads it from stdin"
        rows.append((arg, words))
    return rows


def flag_rows(name: str) -> list[tuple[str, str]]:
    """(flag with its metavar, help; and the kind of its value when it is not plain text)."""
    spec = COMMANDS[name]
    rows = []
    for flag, (metavar, text) in spec["flags"].items():
        kind = flag_kind(spec, flag)
        extra = f" ({kind_words(kind)})" if kind is not None and kind != "text" else ""
        rows.append((flag + (" " + metavar if metavar else ""), text + extra))
    return rows


def defaults(name: str) -> str:
    """The timeouts a command runs under, or "" for commands that do not touch a page."""
    if COMMANDS[name]["cat"] == "meta":
        return ""
    return (
        f"each action times out after {DEFAULTS['action_ms']} ms (BROWSE_TIMEOUT), a page load "
        f"after {DEFAULTS['nav_ms']} ms; --timeout MS sets both for one command"
    )


def example(name: str) -> str:
    """One command line that works when pasted: the registry's, or one made from sample values."""
    spec = COMMANDS[name]
    given = spec.get("example")
    if given:
        return f"browse {given}"
    words = [name]
    for arg in spec["args"]:
        if arg.startswith("["):
            continue
        bare = arg.strip("[].")
        kind = arg_kind(spec, arg)
        words.append(_sample(bare, kind))
    return "browse " + " ".join(words)


def _sample(bare: str, kind: Kind) -> str:
    if isinstance(kind, tuple) and kind[0] == "enum":
        return str(kind[1])
    if isinstance(kind, tuple) and kind[0] == "int" and bare not in _SAMPLES:
        return str(max(kind[1] or 1, 1))
    return _SAMPLES.get(bare, _SAMPLES.get(bare.split("|")[0], bare.lower()))


def sentence(text: str) -> str:
    """A help line as a sentence: its first letter up (never lowering the rest), a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def help_page(name: str) -> str:
    """The text of `browse help NAME`."""
    spec = COMMANDS[name]
    lines = [f"browse {usage_line(name)}", f"  {spec['help']}"]
    if spec.get("about"):
        lines.append(f"  {spec['about']}")
    for title, rows in (("Arguments", argument_rows(name)), ("Flags", flag_rows(name))):
        if rows:
            lines += ["", f"{title}:", *(f"  {left:<16} {right}" for left, right in rows)]
    if defaults(name):
        lines += ["", f"Defaults: {defaults(name)}."]
    if spec.get("data"):
        lines += ["", f"With --json, data is {spec['data']}."]
    lines += ["", "Example:", f"  {example(name)}"]
    return "\n".join(lines)
