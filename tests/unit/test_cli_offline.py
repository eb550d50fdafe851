"""The CLI on its own: argument checks and help from the registry, the lean warm path."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import BROWSE
from refbrowse.cli.argv import help_text, parse_argv
from refbrowse.daemon.command import collect
from refbrowse.errors import UsageError
from refbrowse.mcp.tools import to_argv
from refbrowse.registry import COMMANDS


def test_every_daemon_command_has_a_handler_and_every_handler_a_command() -> None:
    daemon_side = {name for name, spec in COMMANDS.items() if not spec.get("local")}
    assert set(collect()) == daemon_side


def test_every_command_has_help_a_category_and_well_formed_args() -> None:
    for name, spec in COMMANDS.items():
        assert spec["cat"] in ("read", "write", "meta"), name
        assert spec["help"] and not spec["help"].endswith("."), name
        for flag, (_metavar, text) in spec["flags"].items():
            assert flag.startswith("-") and text, (name, flag)
        assert name in help_text() and spec["help"] in help_text(name)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["goto"], "goto needs URL"),
        (["url", "extra"], "too many arguments for url"),
        (["fill", "@e2", "Ann", "@e4"], "fill takes SEL TEXT pairs: '@e4' has no TEXT after it"),
        (["fill", "@e2", "Ann", "Lee", "x"], "fill SEL"),
        (["text", "--bogus"], "unknown flag for text: --bogus"),
        (["--session"], "--session needs a value"),
        (["--timeout", "soon", "url"], "--timeout must be a positive number"),
        ([], "no command given"),
        (["mcp", "--port", "9"], "mcp --port goes only with --http"),
    ],
)
def test_bad_usage_is_rejected_before_any_request(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_argv(argv)
    assert message in caught.value.message
    assert caught.value.hint


def test_fill_takes_more_pairs_from_the_cli_and_from_mcp() -> None:
    request = parse_argv(["fill", "@e2", "Ann Lee", "@e4", "Suite", "@e6", "yes"])
    assert request["args"] == ["@e2", "Ann Lee", "@e4", "Suite", "@e6", "yes"]
    argv, _ = to_argv("fill", {"sel": "@e2", "text": "Ann", "more": ["@e4", "Suite"]})
    assert argv == ["fill", "--", "@e2", "Ann", "@e4", "Suite"]


def test_an_argument_that_starts_with_a_dash_passes_after_double_dash() -> None:
    request = parse_argv(["text", "--", "-weird-selector"])
    assert request["args"] == ["-weird-selector"]


def test_global_flags_go_anywhere_and_session_comes_through() -> None:
    request = parse_argv(["text", "--raw", "main", "--session", "alice", "--json"])
    assert request["args"] == ["main"]
    assert request["raw"] and request["json"] and request["session"] == "alice"


def test_path_arguments_are_made_absolute(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.chdir(str(tmp_path))
    request = parse_argv(["upload", "#x", "a.txt", "sub/b.txt"])
    assert request["args"] == [
        "#x",
        os.path.join(str(tmp_path), "a.txt"),
        os.path.join(str(tmp_path), "sub/b.txt"),
    ]
    shot = parse_argv(["screenshot", "@e2", "x.png"])
    assert shot["args"] == ["@e2", os.path.join(str(tmp_path), "x.png")]


def test_help_lists_commands_and_describes_one() -> None:
    overview = subprocess.run([BROWSE, "help"], capture_output=True, text=True, check=True).stdout
    assert "goto [--allow-file] URL" in overview and "Global flags" in overview
    one = subprocess.run([BROWSE, "help", "text"], capture_output=True, text=True, check=True).stdout
    assert one.startswith("browse text [--max-tokens N] [--max-chars N] [SEL]")


def test_a_usage_error_of_mcp_is_said_before_the_mcp_library_loads() -> None:
    """`browse mcp --port 9`: exit code 2 at once; loading the MCP SDK costs ~0.8 s of CPU."""
    probe = (
        "import sys; from refbrowse.cli.main import main; code = main(['mcp', '--port', '9']);"
        " print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'refbrowse.mcp')"
        " or m.startswith('refbrowse.mcp')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["2", "[]"], done
    assert "mcp --port goes only with --http" in done.stderr and "hint: add --http" in done.stderr
