"""`record stop` writes a Python file from values the caller and the page chose: whatever they hold,
the file parses, and each value reads back as it was given (no quote, triple quote, backslash,
line break or odd character ends a string, a comment or the docstring early)."""

from __future__ import annotations

import ast
import asyncio
from typing import Any

import pytest

from refbrowse.daemon.services.recording import script
from refbrowse.daemon.services.recording.locators import plain, q
from refbrowse.daemon.services.recording.script import ScriptRun, Step

HOSTILE = (
    'x"""\nimport os; os.system("touch /tmp/pwned")\n"""',
    "x'''\nraise SystemExit\n'''",
    'ends with a quote"',
    "ends with a backslash\\",
    "\\N{x} \\u12 \\x \\",
    "line\rbreaks\r\n\x0b\x0c\x1c\x85\u2028\u2029",
    "nul\x00 and bell\x07 and escape\x1b[31m",
    "unicode: Café ñ 東京 🦀 \u202e reversed",
    "a lone surrogate \udc80 from argv",
    "# not a comment\n    assert False",
)


def _run(url: str) -> ScriptRun:
    # no tab: only the writers that need no page are called here (CSS selectors, page-level calls)
    return ScriptRun(tab=None, start_url=url, viewport={"width": 800, "height": 600})  # type: ignore[arg-type]


async def _steps(run: ScriptRun, value: str) -> None:
    writers: list[tuple[str, list[str], dict[str, Any]]] = [
        ("goto", [f"http://127.0.0.1/{value}"], {}),
        ("press", [value], {}),
        ("keydown", [value], {}),
        ("click", [value], {}),
        ("select", [value, value, value], {}),
        ("drag", [value, value], {}),
        ("wait", [value], {}),
        ("wait", [], {"--text": value}),
        ("wait", [], {"--gone": value}),
        ("wait", [], {"--fn": value}),
        ("wait", [], {"--url": value}),
        ("dialog-accept", [value], {}),
        ("mouse", ["wheel", "1e308", "-0"], {}),
        ("mouse", ["move", "inf", "nan"], {}),
        ("mouse", ["down", value], {}),
    ]
    for name, args, flags in writers:
        run.steps.append(Step(name, await script._WRITERS[name](run, args, flags)))
    run.steps.append(Step("resize", [plain(f"# browse resize {value}") + ": no Playwright step for it"]))


@pytest.mark.parametrize("value", HOSTILE)
def test_the_recorded_test_parses_for_any_value_in_every_field(value: str) -> None:
    run = _run(f"http://127.0.0.1/?{value}")
    asyncio.run(_steps(run, value))
    source = run.render(value)
    source.encode("utf-8")  # the file is written as UTF-8: a lone surrogate must be escaped
    tree = ast.parse(source)
    assert f"from session {value} on" in (ast.get_docstring(tree, clean=False) or "")
    test = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "test_recorded_session")
    strings = {n.value for n in ast.walk(test) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert value in strings or not value  # each value is one string of the test, whole
    assert f"http://127.0.0.1/?{value}" in strings
    calls = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert "os.system" not in calls and not any(isinstance(n, ast.Raise) for n in ast.walk(test))


@pytest.mark.parametrize("value", HOSTILE)
def test_comments_and_literals_keep_to_one_line(value: str) -> None:
    assert "\n" not in plain(value) and "\r" not in plain(value)
    assert ast.literal_eval(f'"""{plain(value)}"""') == value
    assert ast.literal_eval(q(value)) == value
