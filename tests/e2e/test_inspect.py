"""Inspect commands on a real page: js, eval, css, attrs, is, cookies, storage, perf, a11y, tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import FIXTURES, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SCRIPTS = FIXTURES / "inspect"


@pytest.fixture(scope="module")
def page(workspace: Workspace, site: Site) -> str:
    url = site.url("/inspect/page.html")
    workspace.ok("goto", url)
    return url


def test_js_prints_a_string_value_fenced(workspace: Workspace, page: str) -> None:
    out = workspace.ok("js", "document.title")
    assert out.startswith(f"<<<untrusted page content from {page} ")
    assert strip_fence(out) == "Inspect fixture"


def test_js_prints_objects_as_pretty_json(workspace: Workspace, page: str) -> None:
    out = strip_fence(workspace.ok("js", "({name: 'x', list: [1, 2]})"))
    assert json.loads(out) == {"name": "x", "list": [1, 2]}
    assert out.startswith("{\n  ")


def test_js_awaits_a_promise_in_an_expression(workspace: Workspace, page: str) -> None:
    out = workspace.ok("js", "await new Promise(r => setTimeout(() => r(window.answer + 1), 5))")
    assert strip_fence(out) == "42"


def test_js_one_line_await_may_end_in_a_comment(workspace: Workspace, page: str) -> None:
    assert strip_fence(workspace.ok("js", "await Promise.resolve(7) // seven")) == "7"


def test_js_can_be_run_twice_with_the_same_declarations(workspace: Workspace, page: str) -> None:
    for _ in range(2):
        assert strip_fence(workspace.ok("js", "const twice = 21; twice * 2")) == "42"


def test_js_undefined_and_elements_are_readable(workspace: Workspace, page: str) -> None:
    assert strip_fence(workspace.ok("js", "undefined")) == "undefined"
    assert strip_fence(workspace.ok("js", "document.querySelector('h1')")).startswith('<h1 id="title"')


def test_a_thrown_page_error_is_a_clear_exit_1(workspace: Workspace, page: str) -> None:
    result = workspace.run("js", "throw new Error('boom here')")
    assert result.code == 1
    assert "the script threw: Error: boom here" in result.err
    assert "Traceback" not in result.err


def test_a_syntax_error_names_what_is_wrong_in_the_given_code(workspace: Workspace, page: str) -> None:
    result = workspace.run("js", "document.title(")
    assert result.code == 1
    assert "the script threw: SyntaxError: Unexpected end of input" in result.err, result.err
    assert "'}'" not in result.err, "the error names a brace that is not in the code"


def test_raw_drops_the_fence(workspace: Workspace, page: str) -> None:
    assert workspace.ok("--raw", "js", "1 + 1") == "2\n"


def _script(workspace: Workspace, name: str) -> str:
    """A fixture script copied into the workspace, where `eval` may read it."""
    copy = workspace.root / name
    copy.write_text((SCRIPTS / name).read_text())
    return str(copy)


def test_eval_file_needs_return_when_multi_line_and_awaiting(workspace: Workspace, page: str) -> None:
    assert strip_fence(workspace.ok("eval", _script(workspace, "awaits.js"))) == "Inspect fixture after await"


def test_eval_one_line_file_returns_its_value(workspace: Workspace, page: str) -> None:
    assert strip_fence(workspace.ok("eval", _script(workspace, "oneline.js"))) == "42"


def test_eval_await_in_a_string_does_not_wrap(workspace: Workspace, page: str) -> None:
    assert strip_fence(workspace.ok("eval", _script(workspace, "plain.js"))) == "Inspect fixture"


def test_eval_of_a_missing_file_is_a_usage_error(workspace: Workspace, tmp_path: Path, page: str) -> None:
    result = workspace.run("eval", str(tmp_path / "nope.js"))
    assert result.code == 2 and "nope.js" in result.err


def test_css_prints_the_computed_value(workspace: Workspace, page: str) -> None:
    assert workspace.ok("css", "#title", "color").strip() == "rgb(10, 20, 30)"
    assert workspace.ok("css", "#title", "fontSize").strip() == "24px"


def test_attrs_prints_attributes_as_json(workspace: Workspace, page: str) -> None:
    found = json.loads(strip_fence(workspace.ok("attrs", "h1")))
    assert found == {"id": "title", "class": "big heading", "data-kind": "fixture"}


def test_attrs_of_an_ambiguous_selector_names_the_count(workspace: Workspace, page: str) -> None:
    result = workspace.run("attrs", "input")
    assert result.code == 1 and "matches 3 elements" in result.err


@pytest.mark.parametrize(
    ("state", "selector", "answer"),
    [
        ("visible", "#title", "true"),
        ("hidden", ".gone", "true"),
        ("visible", ".gone", "false"),
        ("visible", "#no-such-thing", "false"),
        ("checked", "#agree", "true"),
        ("enabled", "#locked", "false"),
        ("disabled", "#locked", "true"),
        ("editable", "#name", "true"),
        ("focused", "#name", "false"),
    ],
)
def test_is_answers_true_or_false(
    workspace: Workspace, page: str, state: str, selector: str, answer: str
) -> None:
    assert workspace.ok("is", state, selector).strip() == answer


def test_is_focused_after_focusing(workspace: Workspace, page: str) -> None:
    workspace.ok("js", "document.querySelector('#name').focus()")
    assert workspace.ok("is", "focused", "#name").strip() == "true"


def test_is_rejects_an_unknown_state(workspace: Workspace, page: str) -> None:
    result = workspace.run("is", "shiny", "#title")
    assert result.code == 2 and "visible, hidden" in result.err


def test_tables_print_csv_header_first(workspace: Workspace, page: str) -> None:
    out = strip_fence(workspace.ok("tables", "#stock"))
    assert out.splitlines() == ["item,count", '"bolts, small",12', "nuts,7"]


def test_tables_of_the_whole_page_and_as_json(workspace: Workspace, page: str) -> None:
    assert strip_fence(workspace.ok("tables")).count("\n\n") == 1
    result = json.loads(workspace.ok("--json", "--raw", "tables", "#second"))
    assert json.loads(result["output"]) == [[['a "quoted" cell']]]


def test_accessibility_prints_the_raw_tree(workspace: Workspace, page: str) -> None:
    tree = strip_fence(workspace.ok("accessibility"))
    assert tree.splitlines()[0].startswith("RootWebArea")
    assert '  heading "Inventory"' in tree
    assert 'checkbox "Agree"' in tree and "checked" in tree


def test_perf_lists_every_timing(workspace: Workspace, page: str) -> None:
    out = workspace.ok("perf")
    names = [line.rsplit(None, 2)[0] for line in out.splitlines() if line.endswith(" ms")]
    assert names == ["dns", "tcp", "tls", "ttfb", "download", "dom parsed", "dom ready", "load", "total"]


def test_storage_lists_and_sets(workspace: Workspace, page: str) -> None:
    workspace.ok("storage", "set", "theme", "dark")
    out = strip_fence(workspace.ok("storage"))
    assert "localStorage: 1 items\n  theme = dark" in out
    assert "sessionStorage: 1 items\n  draft = kept" in out
    assert strip_fence(workspace.ok("js", "localStorage.getItem('theme')")) == "dark"


def test_cookies_are_listed_with_long_values_shortened(workspace: Workspace, site: Site) -> None:
    url = site.route(
        "/inspect/cookies",
        lambda h: h.reply("<p>c</p>", headers={"Set-Cookie": f"token={'v' * 80}; Path=/; HttpOnly"}),
    )
    workspace.ok("goto", url)
    out = strip_fence(workspace.ok("cookies"))
    assert out.startswith("token=" + "v" * 39 + "…")
    assert "httpOnly" in out and "expires session" in out


@pytest.mark.parametrize(
    "command",
    [("attrs", "h1"), ("tables",), ("accessibility",), ("storage",), ("cookies",), ("js", "1")],
)
def test_page_content_is_fenced_and_raw_drops_the_fence(
    workspace: Workspace, page: str, command: tuple[str, ...]
) -> None:
    workspace.ok("goto", page)
    fenced = workspace.ok(*command)
    assert fenced.startswith(f"<<<untrusted page content from {page} nonce=")
    assert fenced.rstrip("\n").splitlines()[-1].startswith("<<<end untrusted page content nonce=")
    raw = workspace.ok("--raw", *command)
    assert "<<<" not in raw and raw.strip() == strip_fence(fenced).strip()
