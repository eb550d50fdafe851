"""The generated command reference matches the registry."""

from __future__ import annotations

from pathlib import Path

from refbrowse.docs import render
from refbrowse.registry import COMMANDS

DOC = Path(__file__).parent.parent / "docs" / "COMMANDS.md"


def test_committed_command_reference_matches_the_registry() -> None:
    assert DOC.read_text() == render(), "run: .venv/bin/python -m refbrowse.docs > docs/COMMANDS.md"


def test_every_command_appears_in_the_reference() -> None:
    text = render()
    for name in COMMANDS:
        assert f"### `browse {name}" in text
