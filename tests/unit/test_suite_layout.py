"""The suite says what each test needs: tests/e2e drives a browser and is marked so, tests/unit never does."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).parent.parent
BROWSER_FIXTURES = {"workspace", "fresh_workspace", "site"}


def _module_marks(path: Path) -> list[str]:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "pytestmark":
            return [ast.unparse(node.value)]
    return []


@pytest.mark.parametrize("path", sorted((TESTS / "e2e").glob("test_*.py")), ids=lambda p: p.name)
def test_every_end_to_end_module_is_marked_browser(path: Path) -> None:
    marks = _module_marks(path)
    assert marks and "pytest.mark.browser" in marks[0], (
        f"{path.name} needs `pytestmark = pytest.mark.browser`"
    )


@pytest.mark.parametrize("path", sorted((TESTS / "unit").glob("test_*.py")), ids=lambda p: p.name)
def test_no_unit_test_asks_for_a_browser_or_a_daemon(path: Path) -> None:
    tree = ast.parse(path.read_text())
    assert _module_marks(path) == [], f"{path.name} is marked: it belongs in tests/e2e"
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            wanted = {arg.arg for arg in node.args.args} & BROWSER_FIXTURES
            assert not wanted, f"{path.name}::{node.name} takes {wanted}: move it to tests/e2e"
