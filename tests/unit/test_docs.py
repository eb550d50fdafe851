"""The generated command reference and README table match the registry; help fits habits."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import BROWSE
from refbrowse import __version__
from refbrowse.describe import example, help_page, sentence
from refbrowse.docs import readme_table, render, with_readme_table
from refbrowse.parse import parse_argv
from refbrowse.registry import COMMANDS

ROOT = Path(__file__).parent.parent.parent
DOC = ROOT / "docs" / "COMMANDS.md"
README = ROOT / "README.md"


def test_committed_command_reference_matches_the_registry() -> None:
    assert DOC.read_text() == render(), "run: make docs"


def test_readme_command_table_matches_the_registry() -> None:
    text = README.read_text()
    assert readme_table() in text and with_readme_table(text) == text, "run: make docs"


def test_every_command_appears_in_the_reference_and_the_readme() -> None:
    text, table = render(), readme_table()
    for name in COMMANDS:
        assert f"### `browse {name}" in text
        assert f"| `{name}" in table


def test_a_help_line_keeps_its_capitals_as_a_sentence() -> None:
    assert (
        sentence("press a key or chord (Enter, Tab, Control+A)")
        == "Press a key or chord (Enter, Tab, Control+A)."
    )
    assert "Press a key or chord (Enter, Tab, Control+A)." in render()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_help_with_every_flag_and_an_example_that_parses(name: str) -> None:
    page = help_page(name)
    assert COMMANDS[name]["help"] in page
    for flag in COMMANDS[name]["flags"]:
        assert flag in page
    line = example(name)
    assert f"Example:\n  {line}" in page
    if COMMANDS[name]["cat"] != "meta":
        assert "5000 ms" in page and "30000 ms" in page
    command = line.removeprefix("browse ")
    words = (
        subprocess.run(
            ["sh", "-c", f'for w in {command}; do printf "%s\\0" "$w"; done'], capture_output=True, check=True
        )
        .stdout.decode()
        .split("\0")[:-1]
    )
    assert parse_argv(words)["command"] == name  # the example passes every check


@pytest.mark.parametrize(
    "argv", [["wait", "--help"], ["help", "wait"], ["wait", "-h"], ["--json", "wait", "-h"]]
)
def test_help_for_one_command_comes_every_usual_way(argv: list[str]) -> None:
    out = subprocess.run([BROWSE, *argv], capture_output=True, text=True, check=True).stdout
    assert out.startswith(
        "browse wait [--text T] [--gone SEL] [--url PAT] [--idle] [--load] [--networkidle] [--fn EXPR]"
    )
    assert "Example:" in out and "--networkidle" in out


@pytest.mark.parametrize("argv", [["version"], ["--version"], ["-V"]])
def test_version_comes_every_usual_way(argv: list[str]) -> None:
    out = subprocess.run([BROWSE, *argv], capture_output=True, text=True, check=True).stdout
    assert out == f"refbrowse {__version__}\n"


def test_bin_browse_runs_from_a_clone() -> None:
    proc = subprocess.run(
        [str(ROOT / "bin" / "browse"), "help", "goto"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("browse goto")
