"""The registry's kinds: every value is checked by the CLI before a daemon is contacted or started."""

from __future__ import annotations

import pytest

from refbrowse.errors import UsageError
from refbrowse.kinds import parse_value
from refbrowse.parse import arg_kind, flag_kind, parse_argv, parse_values
from refbrowse.registry import COMMANDS

BAD_USAGE = [
    (["snapshot", "-d", "x"], "snapshot -d takes a positive whole number"),
    (["snapshot", "-d", "0"], "snapshot -d must be from 1 to"),
    (["snapshot", "--max-tokens", "lots"], "snapshot --max-tokens takes a positive whole number"),
    (["viewport", "huge"], "viewport WxH takes WIDTHxHEIGHT"),
    (["viewport", "800x600", "--scale", "9"], "viewport --scale must be from 0.25 to 5"),
    (["tab", "zero"], "tab N takes a positive whole number"),
    (["tab", "0"], "tab N must be from 1 to"),
    (["closetab", "-1"], "closetab N must be from 1 to"),
    (["wait", "soon"], "'soon' is neither a ref nor a CSS selector"),
    (["wait", "40000"], "must be from 0 to 30000"),
    (["press", "enter"], "not a key name"),
    (["press", "Hyper+A"], "not a key name"),
    (["click", "@x3"], "@x3 is not a ref"),
    (["click", "@e0"], "@e0 is not a ref"),
    (["goto", "javascript:alert(1)"], "cannot load javascript: URLs"),
    (["newtab", "ftp://host/"], "cannot load ftp: URLs"),
    (["is", "shiny", "#a"], "is STATE takes one of visible"),
    (["state", "rename", "x"], "state takes one of save"),
    (["cookie-import-browser", "netscape"], "chrome, chromium, brave, edge, firefox"),
    (["screenshot", "--clip", "1,2"], "takes X,Y,W,H"),
    (["screenshot", "--clip", "0,0,0,10"], "positive size"),
    (["snapshot", "--max-tokenz", "3"], "unknown flag for snapshot: --max-tokenz"),
    (["connect", "--cdp", "localhost:9222"], "connect --cdp takes a DevTools address"),
    (["connect", "--channel", "netscape"], "connect --channel takes one of chrome, msedge"),
    (["pdf", "a\0b.pdf"], "pdf PATH is not a file path: it holds a NUL character"),
    (["snapshot", "-a", "-o", "x\0.png"], "snapshot -o is not a file path"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_USAGE)
def test_bad_values_are_usage_errors_in_the_cli(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_argv(argv)
    assert message in caught.value.message + caught.value.hint
    assert caught.value.hint and caught.value.exit_code == 2


def test_a_mistyped_flag_gets_a_suggestion() -> None:
    with pytest.raises(UsageError) as caught:
        parse_argv(["snapshot", "--max-tokenz", "3"])
    assert "did you mean --max-tokens?" in caught.value.hint


def test_an_option_named_with_dashes_and_spaces_is_a_value_not_a_flag() -> None:
    # Roundup's selects say "- nothing -" and "- no selection -": the snapshot shows that name to pick
    request = parse_argv(["fill", "@e3", "title", "@e4", "- nothing -"])
    assert request["args"] == ["@e3", "title", "@e4", "- nothing -"]
    assert parse_argv(["select", "@e4", "- no selection -"])["args"] == ["@e4", "- no selection -"]


def test_the_daemon_parses_values_into_their_kinds() -> None:
    assert parse_values("viewport", ["800x600"], {"--scale": "2"}) == ([(800, 600)], {"--scale": 2.0})
    assert parse_values("wait", ["250"], {}) == ([250], {})
    assert parse_values("wait", ["#late"], {}) == (["#late"], {})
    assert parse_values("goto", ["example.com"], {}) == (["https://example.com"], {})
    assert parse_values("is", ["Visible", "#a"], {}) == (["visible", "#a"], {})
    assert parse_values("snapshot", [], {"-d": "3", "-i": True}) == ([], {"-d": 3, "-i": True})
    assert parse_values("screenshot", [], {"--clip": "0,0,80,60"}) == ([], {"--clip": (0.0, 0.0, 80.0, 60.0)})


def test_the_daemon_rejects_what_the_cli_would() -> None:
    with pytest.raises(UsageError):
        parse_values("tab", ["zero"], {})
    with pytest.raises(UsageError):
        parse_values("snapshot", [], {"--bogus": True})
    with pytest.raises(UsageError):  # over MCP or HTTP a path can hold a NUL, which no shell passes
        parse_values("eval", ["/tmp/a\0b.js"], {})


def test_a_rest_of_line_argument_takes_every_remaining_word() -> None:
    assert parse_argv(["js", "1", "+", "2"])["args"] == ["1 + 2"]


@pytest.mark.parametrize(
    ("kind", "value", "parsed"),
    [
        ("key", "Control+A", "Control+A"),
        ("key", "a", "a"),
        ("key", "Control++", "Control++"),
        ("sel", "button", "button"),
        ("sel", "my-widget", "my-widget"),
        ("sel", "text=Sign in", "text=Sign in"),
        ("sel", "e12", "e12"),
        ("sel", "ref=e12", "ref=e12"),
        ("json", '{"a": [1]}', {"a": [1]}),
        ("size", "1280×800", (1280, 800)),
        ("place", "@e7", "@e7"),
        ("place", "#list li:nth-child(1)", "#list li:nth-child(1)"),
        ("place", "300,120", ("point", 300.0, 120.0)),
        ("place", "+40,-10", ("offset", 40.0, -10.0)),
        ("place", "-2.5,+0", ("offset", -2.5, 0.0)),
        ("place", "0, +8", ("offset", 0.0, 8.0)),
        (("int", 0, None), "7", 7),
        (("enum", "save", "load"), "LOAD", "load"),
    ],
)
def test_kinds_accept_what_they_should(kind: object, value: str, parsed: object) -> None:
    assert parse_value(kind, value, "x") == parsed  # type: ignore[arg-type]


def test_every_argument_and_flag_of_the_registry_has_a_known_kind() -> None:
    for name, spec in COMMANDS.items():
        for arg in [*spec["args"], *(a for names in spec.get("forms", {}).values() for a in names)]:
            assert arg_kind(spec, arg), (name, arg)
        for flag in spec["flags"]:
            flag_kind(spec, flag)
        for key in spec.get("kinds", {}):
            in_forms = [a for names in spec.get("forms", {}).values() for a in names]
            known = {a.strip("[].") for a in [*spec["args"], *in_forms]} | set(spec["flags"])
            assert key in known, f"{name}: kinds names {key}, which is neither an argument nor a flag"


def test_the_channel_words_are_the_channels_the_daemon_knows() -> None:
    from refbrowse.daemon.core.browser.target import CHANNEL_PATHS

    assert COMMANDS["connect"].get("kinds", {})["--channel"] == ("enum", *CHANNEL_PATHS)


def test_a_drag_offset_to_the_left_is_an_argument_not_a_flag() -> None:
    request = parse_argv(["drag", "@e3", "-90,+0"])
    assert request["args"] == ["@e3", "-90,+0"] and not request["flags"]
