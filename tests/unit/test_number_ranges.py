"""Every number the registry takes has a range, checked before a daemon starts and again in the daemon.

A wheel turned by 1e308 pixels reached Chromium as it was and wedged the tab's
pointer input until the next page load. Here each numeric argument and flag of
every command is walked: its kind must bound it on both sides, and values far
past any use must be refused by the CLI's parser and by the daemon's.
"""

from __future__ import annotations

import pytest

from refbrowse import kinds
from refbrowse.errors import UsageError
from refbrowse.parse import arg_kind, flag_kind, parse_argv, parse_values
from refbrowse.registry import COMMANDS, GLOBAL_FLAGS
from refbrowse.specs import CommandSpec, Kind

# The kinds that hold numbers inside a word, and words past their bounds.
COMPOSITE = {
    "size": ("99999999x800", "800x99999999"),
    "box": ("0,0,1e308,10", "1e308,0,10,10", "0,0,10,inf", "0,0,nan,10"),
    "place": ("99999999999,0", "+99999999999,0", "0,-99999999999"),  # 1e308 reads as a selector
}
HUGE_NUMBERS = ("1e308", "-1e308", "99999999999999999999", "-99999999999999999999", "inf", "nan")


def _numeric_parts(kind: Kind) -> list[Kind]:
    """The parts of a kind that take numbers: itself, or the numeric alternatives of an "alt"."""
    if isinstance(kind, str):
        return [kind] if kind in COMPOSITE else []
    if kind[0] in ("int", "number"):
        return [kind]
    if kind[0] == "alt":
        return [part for alt in kind[1:] for part in _numeric_parts(alt)]  # type: ignore[arg-type]
    return []


def _values(spec: CommandSpec) -> list[tuple[str, Kind]]:
    names = list(spec["args"]) + [a for form in spec.get("forms", {}).values() for a in form]
    found = [(name, arg_kind(spec, name)) for name in names]
    found += [(flag, kind) for flag in spec["flags"] if (kind := flag_kind(spec, flag)) is not None]
    return found


NUMERIC = sorted(
    {
        (command, name, part)
        for command, spec in COMMANDS.items()
        for name, kind in _values(spec)
        for part in _numeric_parts(kind)
    },
    key=str,
)


def _unbounded(kind: Kind) -> bool:
    return isinstance(kind, tuple) and (kind[1] is None or kind[2] is None)


def test_the_walk_finds_the_numbers_and_sees_an_unbounded_one() -> None:
    assert len(NUMERIC) > 40, NUMERIC
    assert ("mouse", "DY", ("number", -1_000_000, 1_000_000)) in NUMERIC
    assert _unbounded(("int", 0, None)) and _unbounded(("number", None, 5))
    assert _numeric_parts(("alt", ("int", 0, 30_000), "sel")) == [("int", 0, 30_000)]


@pytest.mark.parametrize(("command", "name", "kind"), NUMERIC, ids=lambda v: str(v))
def test_every_number_the_registry_takes_has_a_range(command: str, name: str, kind: Kind) -> None:
    assert not _unbounded(kind), f"{command} {name}: give its kind both bounds ({kind})"
    for value in COMPOSITE.get(kind, HUGE_NUMBERS) if isinstance(kind, str) else HUGE_NUMBERS:
        with pytest.raises(UsageError):
            kinds.parse_value(kind, value, f"{command} {name}")


def test_the_global_timeout_has_a_range() -> None:
    assert GLOBAL_FLAGS["--timeout"][0] == "MS"
    for value in ("1e308", "99999999999999999999", "3600001", "0", "-5"):
        with pytest.raises(UsageError, match="--timeout must be"):
            parse_argv(["--timeout", value, "url"])


@pytest.mark.parametrize(
    "argv",
    [
        ["mouse", "wheel", "0", "1e308"],
        ["mouse", "wheel", "-1e308", "0"],
        ["mouse", "move", "1e308", "10"],
        ["drag", "#a", "+99999999999,0"],
        ["screenshot", "--clip", "0,0,1e308,10"],
        ["mcp", "--port", "70000"],
        ["cookies", "set", "a", "1", "--expires", "99999999999999999999"],
        ["wait", "99999999999"],
        ["click", "#a", "--settle", "99999999999"],
    ],
    ids=" ".join,
)
def test_a_huge_number_is_refused_by_the_cli_and_by_the_daemon(argv: list[str]) -> None:
    with pytest.raises(UsageError) as cli:
        parse_argv(argv)
    assert cli.value.exit_code == 2 and cli.value.hint
    # What the daemon runs on every request (MCP, a chain's step, a plain HTTP caller):
    # the words as sent, the flags by name.
    words = argv[1:]
    flags = {w: words[i + 1] for i, w in enumerate(words) if w.startswith("--")}
    args = [w for i, w in enumerate(words) if not w.startswith("--") and not words[i - 1].startswith("--")]
    with pytest.raises(UsageError):
        parse_values(argv[0], args, dict(flags))


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("browse", {"command": "mouse wheel 0 1e308"}),
        ("browse", {"command": "screenshot --clip 0,0,1e308,10"}),
        ("text", {"max_tokens": 10**20}),
        ("snapshot", {"max_tokens": 1e308}),
    ],
    ids=str,
)
def test_an_mcp_call_is_held_to_the_same_ranges(tool: str, arguments: dict[str, object]) -> None:
    """The MCP server turns a call into argv and parses it as the CLI does (`mcp.server`)."""
    from refbrowse.mcp.tools import input_schema, to_argv

    if tool != "browse":
        schema = input_schema(tool)["properties"]["max_tokens"]
        assert schema["maximum"] < 10**10, schema  # a client is told the range too
    with pytest.raises(UsageError):
        argv, _ = to_argv(tool, arguments)
        parse_argv(argv)
