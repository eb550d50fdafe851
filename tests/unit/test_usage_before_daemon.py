"""Usage mistakes that argv alone shows are caught by the CLI, before any daemon or browser starts.

Each rule lives in the registry (`rules`, `forms`, kinds) and `refbrowse.parse` checks it in the
CLI and again in the daemon for callers that are not the CLI. A handler may still raise
`UsageError` before its first `await` only where the input needs more than argv (a file, the
page, the daemon's state, stdin): `NEEDS_MORE_THAN_ARGV` says which and why, and a new one fails
here until it is moved into the registry or given its reason.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from refbrowse.checks import CHECKS
from refbrowse.cli.argv import parse_argv
from refbrowse.errors import UsageError
from refbrowse.registry import COMMANDS

HANDLERS = Path(__file__).resolve().parents[2] / "src" / "refbrowse" / "daemon" / "handlers"

# Every usage mistake a handler used to find before its first await, and the words that say it.
MISTAKES = [
    (["route", "**/x", "--abort", "--body", "x"], "--abort does not go with --body"),
    (["route", "**/x", "--abort", "--status", "500"], "--abort does not go with --status"),
    (["route", "**/x", "--body", "x", "--body-file", "b.txt"], "not --body and --body-file"),
    (["route", "--body", "x"], "route needs PATTERN or --har"),
    (["route", "**/x", "--url", "y", "--body", "x"], "--url goes only with --har"),
    (["route", "**/x", "--har", "a.har", "--url", "y"], "--url does not go with PATTERN"),
    (["route", "--har", "a.har", "--status", "200"], "--har does not go with --status"),
    (["route", "**/x"], "route needs --body, --body-file, --status"),
    (["headers", "set", "X-Debug"], "headers needs VALUE"),
    (["headers", "set"], "headers needs NAME"),
    (["headers", "set", "X-Debug:1", "2"], "'X-Debug:1' is not a header name"),
    (["headers", "clear", "X-Debug", "1"], "too many arguments for headers"),
    (["har", "stop", "x.har"], "too many arguments for har"),
    (["geo", "48.85"], "geo needs LON or off"),
    (["geo", "off", "2.29"], "geo off does not go with LON"),
    (["permissions", "grant"], "permissions needs NAME"),
    (["permissions", "clear", "camera"], "too many arguments for permissions"),
    (["state", "save"], "state needs NAME"),
    (["state", "list", "alice"], "too many arguments for state"),
    (["connect", "--cdp", "http://127.0.0.1:9222", "--channel", "chrome"], "not --channel and --cdp"),
    (["wait"], "wait needs SEL|MS, --text"),
    (["wait", "--text", "Saved", "--idle"], "not --text and --idle"),
    (["wait", "#a", "--load"], "not SEL|MS and --load"),
    (["wait", "--text", " "], "wait --text is empty"),
    (["wait", "--fn", ""], "wait --fn is empty"),
    (["wait", "--response", ""], "wait --response is empty"),
    (["find", "  "], "find TEXT is empty"),
    (["useragent", " "], "useragent UA is empty"),
    (["cookies", "--secure"], "--secure goes only with set"),
    (["cookies", "clear", "--path", "/"], "--path goes only with set"),
    (["cookies", "--domain", "example.com"], "--domain goes only with set or clear"),
    (["storage", "set", "theme"], "storage set needs VALUE"),
    (["viewport", "9000x800", "--scale", "2"], "18000 device pixels a side, more than 16384"),
    (["viewport", "20000x800"], "each side must be from 10 to 10000"),
    (["cookies", "set", "a", "1", "--samesite", "None"], "--samesite none goes only with --secure"),
    (["route", "**/x", "--delay", "0"], "route --delay 0 goes only with --body"),
    (["route", "/a(/", "--abort"], "route /a(/: not a regular expression"),
    (["route", "--har", "a.har", "--url", "/a[/"], "route /a[/: not a regular expression"),
    (["find", "a(", "--regex"], "--regex 'a(' is not a valid pattern"),
    (["screenshot", "a.png", "b.png"], "screenshot takes one path, got two"),
    (
        ["screenshot", "h1", "--viewport"],
        "one of --viewport, --clip or an element, got --viewport and an element",
    ),
    (["screenshot", "--baseline", "b.png", "x.png"], "takes no PATH with it"),
    (["mouse", "wheel", "0", "1e308"], "mouse DY must be from -1000000 to 1000000"),
    (["video", "stop", "clip.avi"], "a video is saved as .webm or .mp4, not .avi"),
    (["js", " "], "there is no code to run"),
]

# Handler UsageErrors that can fire before the first await and need more than argv.
NEEDS_MORE_THAN_ARGV = {
    ("chain", "chain"): "its steps come on stdin, not in argv (each step is parsed by the same parser)",
    ("emulate", "devices"): "the device list is Playwright's, known once the driver runs",
    ("headed", "resume"): "whether a handoff is in progress is the daemon's state",
    ("inspect", "js"): "eval shares the check for a file's content, read by the daemon (js's is argv's too)",
    ("interact", "upload"): "whether the files exist is read where the daemon runs",
    (
        "network",
        "route",
    ): "--body-file and --har are files the daemon reads (is there one, its size, entries)",
    (
        "pagedata",
        "cookies",
    ): "--domain defaults to the page's host, and an about: or data: page has none",
    ("read_around", "read"): "with no TARGET it reads the page URL's #fragment",
    ("tabs", "tab"): "how many tabs there are is the session's state",
    ("tabs", "closetab"): "how many tabs there are is the session's state",
}


@pytest.mark.parametrize(("argv", "words"), MISTAKES, ids=[" ".join(argv) for argv, _ in MISTAKES])
def test_a_usage_mistake_is_an_error_of_the_cli_parser_alone(argv: list[str], words: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_argv(argv)
    assert words in caught.value.message, caught.value.message
    assert caught.value.hint and caught.value.exit_code == 2


def test_the_right_use_of_the_same_commands_parses() -> None:
    for argv in (
        ["route", "**/x", "--abort"],
        ["route", "**/x", "--body", "x", "--status", "201"],
        ["route", "--har", "a.har", "--url", "**/api/*"],
        ["route", "**/x", "--delay", "300"],
        ["headers", "set", "X-Debug", "1"],
        ["headers", "clear"],
        ["har", "start"],
        ["geo", "off"],
        ["geo", "48.85", "2.29"],
        ["permissions", "grant", "camera", "geolocation"],
        ["state", "list"],
        ["wait", "--load"],
        ["wait", "500"],
        ["cookies"],
        ["cookies", "set", "a", "1", "--secure"],
        ["cookies", "clear", "--domain", "example.com"],
        ["storage"],
        ["storage", "set", "theme", "dark"],
        ["connect", "--channel", "chrome"],
        ["viewport", "8000x800", "--scale", "2"],
        ["cookies", "set", "a", "1", "--samesite", "None", "--secure"],
        ["cookies", "set", "a", "1", "--samesite", "lax"],
        ["route", "**/x", "--delay", "0", "--body", "x"],
        ["route", "/a\\/b/i", "--abort"],
        ["find", "a(b)?", "--regex"],
        ["find", "a("],
        ["screenshot", "h1", "x.png"],
        ["screenshot", "--clip", "0,0,5,5", "x.png"],
        ["screenshot", "--baseline", "b.png", "h1"],
        ["mouse", "wheel", "0", "-1000000"],
        ["video", "stop", "clip.MP4"],
        ["video", "stop"],
    ):
        parse_argv(argv)


def test_every_rule_names_a_flag_an_argument_or_a_form_of_its_command() -> None:
    for name, spec in COMMANDS.items():
        forms = spec.get("forms", {})
        words = {w.strip("[].") for w in spec["args"]} | set(spec["flags"]) | set(forms)
        words |= {w.strip("[].") for names in forms.values() for w in names}
        words |= {w for w in spec["args"] if w.strip("[]").islower()}  # `storage [set]`
        words |= {"off"} if name == "geo" else set()  # geo's LAT may be the word off
        for rule in spec.get("rules", ()):
            assert rule[0] in ("one", "any", "apart", "with", "check"), (name, rule)
            if rule[0] == "check":
                assert len(rule) == 2 and rule[1] in CHECKS, (name, rule)
                continue
            unknown = [w for w in rule[1:] if w.partition("=")[0].strip("[]") not in words]
            assert unknown == [], f"{name}: rule {rule} names {unknown}"


def _first_await(fn: ast.AST) -> int:
    lines = [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Await | ast.AsyncFor | ast.AsyncWith)]
    return min(lines, default=1 << 30)


def _raisers(fn: ast.AST, local: dict[str, ast.AST], limit: int, seen: set[str]) -> bool:
    """Whether `fn` raises UsageError before line `limit`, itself or in a module function it calls then."""
    for node in ast.walk(fn):
        if getattr(node, "lineno", 1 << 30) > limit:
            continue
        raised = node.exc if isinstance(node, ast.Raise) else None
        if isinstance(raised, ast.Call) and getattr(raised.func, "id", "") == "UsageError":
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in local:
            if node.func.id in seen:
                continue
            seen.add(node.func.id)
            callee = local[node.func.id]
            bound = _first_await(callee) if isinstance(callee, ast.AsyncFunctionDef) else 1 << 30
            if _raisers(callee, local, bound, seen):
                return True
    return False


def _early_usage_errors() -> set[tuple[str, str]]:
    found = set()
    for path in sorted(HANDLERS.glob("*.py")):
        tree = ast.parse(path.read_text())
        local: dict[str, ast.AST] = {
            n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        for fn in local.values():
            is_handler = any("handler" in ast.unparse(d) for d in getattr(fn, "decorator_list", []))
            early = is_handler and isinstance(fn, ast.AsyncFunctionDef)
            if early and _raisers(fn, local, _first_await(fn), {fn.name}):
                found.add((path.stem, fn.name))
    return found


def test_no_handler_finds_a_usage_mistake_before_its_first_await_that_argv_alone_would_show() -> None:
    early = _early_usage_errors()
    unexplained = sorted(early - set(NEEDS_MORE_THAN_ARGV))
    assert unexplained == [], (
        f"{unexplained} raise UsageError before their first await: put the rule in the registry"
        " (`rules`, `forms` or a kind) so the CLI finds it before a daemon starts, or say in"
        " NEEDS_MORE_THAN_ARGV what it needs beyond argv"
    )
    stale = sorted(set(NEEDS_MORE_THAN_ARGV) - early)
    assert stale == [], f"{stale} no longer raise UsageError early: take them out of NEEDS_MORE_THAN_ARGV"


def test_the_guard_sees_a_handler_that_checks_argv_itself(tmp_path: Path) -> None:
    source = (
        "@handler('x')\nasync def x(call):\n    if call.flag('--a') and call.flag('--b'):\n"
        "        raise UsageError('a and b', 'one')\n    await call.page.reload()\n"
    )
    tree = ast.parse(source)
    fn = tree.body[0]
    assert _raisers(fn, {"x": fn}, _first_await(fn), {"x"})


def test_a_usage_mistake_exits_2_in_the_cli_and_writes_no_daemon_file(tmp_path: Path) -> None:
    browse = Path(sys.executable).with_name("browse")
    done = subprocess.run(
        [str(browse), "route", "**/x", "--abort", "--body", "x"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2 and "--abort does not go with --body" in done.stderr
    assert not (tmp_path / ".refbrowse" / "daemon.json").exists()
    assert "starting browser" not in done.stderr
