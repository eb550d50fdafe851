"""`chain`: several commands in one request, in order, stopping at the first failure."""

from __future__ import annotations

import json

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture(scope="module")
def form_page(site: Site) -> str:
    return site.page("/chain/form", '<title>chain</title><input id="who"><p id="out">empty</p>')


def test_chain_runs_each_step_and_prints_it_under_its_name(workspace: Workspace, form_page: str) -> None:
    steps = [
        ["goto", form_page],
        ["js", "document.querySelector('#out').textContent = 'filled'"],
        ["--raw", "js", "document.querySelector('#out').textContent"],
        ["url"],
    ]
    out = workspace.ok("chain", input=json.dumps(steps))
    blocks = out.strip().split("\n\n")
    assert blocks[0].startswith(f"[1/4] goto {form_page}\nNavigated to {form_page} (200)\n<<<untrusted")
    assert blocks[1].startswith("[2/4] js ")
    assert blocks[2].endswith("\nfilled")
    assert blocks[3] == f"[4/4] url\n{form_page}"
    assert strip_fence(workspace.ok("js", "document.querySelector('#out').textContent")) == "filled"


def test_chain_stops_at_the_first_failure_and_exits_with_its_code(
    workspace: Workspace, form_page: str
) -> None:
    steps = [["goto", form_page], ["attrs", "#missing"], ["js", "document.title = 'should not run'"]]
    result = workspace.run("chain", input=json.dumps(steps))
    assert result.code == 1
    assert result.out.startswith(f"[1/3] goto {form_page}")
    assert "step 2 of 3 (attrs #missing) failed" in result.err and "#missing" in result.err
    assert strip_fence(workspace.ok("js", "document.title")) == "chain"


def test_chain_failure_in_json_mode_keeps_earlier_output(workspace: Workspace, form_page: str) -> None:
    result = workspace.run("--json", "chain", input=json.dumps([["url"], ["tab", "99"]]))
    data = result.json
    assert result.code == 2 and data["exit_code"] == 2
    assert str(data["output"]).startswith("[1/2] url")
    assert "step 2 of 2" in str(data["error"])


@pytest.mark.parametrize(
    ("stdin", "says"),
    [
        ('[["goto"', "not JSON"),
        ("{}", "non-empty JSON array"),
        ("[]", "non-empty JSON array"),
        ('[["url"], "click"]', "step 2 is not a list"),
        ('[["no-such-command"]]', "unknown command"),
        ('[["chain"]]', "cannot run inside a chain"),
        ('[["url"], ["goto"]]', "step 2 (goto): goto needs URL"),
        ('[["url"], ["is", "shiny", "p"]]', "step 2 (is shiny p): is STATE takes one of"),
    ],
)
def test_malformed_chains_are_usage_errors_before_anything_runs(
    workspace: Workspace, form_page: str, stdin: str, says: str
) -> None:
    workspace.ok("goto", form_page)
    result = workspace.run("chain", input=stdin)
    assert result.code == 2, result.err
    assert says in result.err
    assert result.out == ""
