"""The agent-task suite's own logic: reading refs as an agent does, counting calls, the report.

No browser and no application here: these are the pieces whose mistakes would
silently change the calls, characters and false errors the suite reports.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agent import report
from agent.drivers import Browse, TaskFailed
from agent.reading import NotFound, Tally, is_false_error, line_with, pick, pick_hinted, pick_near
from agent.suite import totals
from agent.tasks import backlink_line, first_cell, text_value

OURS = """<<<untrusted page content from http://x/ nonce=1>>>
title: "data: cities"
- combobox "- column - id name country" @e6: "- column -"
  - option "- column -" [selected]
  - option "country"
- combobox "= != contains" @e7: "="
- textbox @e8
- button "Apply" @e9
- link "population" @e22
- img @e23
- link "founded" @e24
- img @e25
- checkbox @e70 [checked]
- "Breakfast included"
- button "Save" @e11
- button "Save draft" @e12
<<<end untrusted page content nonce=1>>>"""

MCP = """### Snapshot
```yaml
- generic [ref=f1e6]:
  - textbox "Username*" [active] [ref=f1e11]:
    - /placeholder: Enter your username
  - combobox [ref=e14] [cursor=pointer]:
    - option "- column -" [selected]
  - button [ref=f1e21] [cursor=pointer]:
    - emphasis [ref=f1e22]: Sign in
```"""


def test_a_ref_is_picked_by_role_and_part_of_its_name() -> None:
    assert pick(OURS, "combobox", "- column -") == "e6"
    assert pick(OURS, "button", "apply") == "e9"
    assert pick(MCP, "textbox", "Username") == "f1e11"


def test_an_exact_name_skips_longer_names() -> None:
    assert pick(OURS, "button", "Save draft") == "e12"
    assert pick(OURS, "button", "Save", exact=True) == "e11"
    with pytest.raises(NotFound):
        pick(OURS, "button", "Sav", exact=True)


def test_an_unnamed_element_is_found_by_the_text_next_to_it() -> None:
    assert pick_near(OURS, 'link "population"', "img") == "e23"
    assert pick_near(OURS, '"= != contains', "textbox") == "e8"
    assert pick_near(OURS, '"Breakfast included"', "checkbox", before=True) == "e70"
    assert pick_near(MCP, "]: Sign in", "button", before=True) == "f1e21"
    assert pick_near(MCP, '"- column -"', "combobox", before=True) == "e14"


def test_an_unnamed_element_is_found_by_its_near_hint_and_a_named_one_is_not() -> None:
    hinted = OURS.replace(
        "- checkbox @e70 [checked]", '- checkbox @e70 (near "Breakfast included") [checked]'
    )
    assert pick_hinted(hinted, "checkbox", "breakfast") == "e70"
    assert pick_near(hinted, '- "Breakfast included"', "checkbox", before=True) == "e70"
    with pytest.raises(NotFound):
        pick_hinted(OURS, "checkbox", "Breakfast")  # no hint on that line
    with pytest.raises(NotFound):
        pick_hinted('- button "Save" @e1 (near "Breakfast")', "button", "Breakfast")  # named: not by hint


def test_nothing_near_the_text_or_no_such_text_is_not_found() -> None:
    with pytest.raises(NotFound):
        pick_near(OURS, 'button "Save draft"', "img")
    with pytest.raises(NotFound):
        pick_near(OURS, "no such words", "button")


def test_false_errors_are_covered_stale_and_timeouts_only() -> None:
    assert is_false_error("error: @e349 is covered by another element: div.q-item")
    assert is_false_error("error: @e5 is stale: the page changed")
    assert is_false_error("TimeoutError: locator.click: Timeout 5000ms exceeded.")
    assert is_false_error("error: `browse click` timed out after 120 s")
    assert not is_false_error("error: @e348 is not a <select>")
    assert not is_false_error("error: unknown ref @e999")


def test_a_tally_counts_calls_characters_errors_and_only_actions_as_false_errors() -> None:
    tally = Tally()
    tally.add("snapshot", "x" * 100, True, action=False)
    tally.add("click", "error: @e1 is covered by div", False, action=True)
    tally.add("wait", "error: timed out", False, action=False)
    tally.add("click", "Clicked @e1", True, action=True)
    assert tally.figures() == {
        "calls": 4,
        "chars": 100 + 28 + 16 + 11,
        "errors": 2,
        "false_errors": 1,
        "rereads": 0,
        "screenshots": 0,
    }
    assert tally.commands() == ["snapshot", "click (failed)", "wait (failed)", "click"]


def script(tmp_path: object, lines: list[str]) -> str:
    path = os.path.join(str(tmp_path), "fake-browse")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + "\n".join(lines) + "\n")
    os.chmod(path, 0o755)
    return path


def test_a_ref_already_read_costs_no_snapshot_and_a_missing_one_costs_one(tmp_path: object) -> None:
    fake = script(
        tmp_path, ['[ "$1" = snapshot ] && echo \'- button "Later" @e5\'', 'echo "- button \\"Go\\" @e4"']
    )
    b = Browse(fake, dict(os.environ))
    b.run("goto", "http://x/")
    assert b.find("button", "Go") == "@e4"
    assert len(b.tally.calls) == 1
    assert b.find("button", "Later") == "@e5"
    assert b.tally.figures()["rereads"] == 1  # the snapshot taken only for the missing ref
    assert [c.command for c in b.tally.calls] == ["goto", "snapshot"]
    with pytest.raises(TaskFailed):
        b.find("link", "Nowhere")


def test_an_action_after_a_false_error_is_retried_then_forced(tmp_path: object) -> None:
    fake = script(
        tmp_path,
        [
            'case "$*" in *--force*) echo forced; exit 0;; wait*) exit 0;; esac',
            'echo "error: @e1 is covered by div" >&2; exit 1',
        ],
    )
    b = Browse(fake, dict(os.environ))
    assert b.act("click", "@e1") == "forced\n"
    assert b.tally.commands() == ["click (failed)", "wait", "click (failed)", "click"]
    assert b.tally.figures()["false_errors"] == 2


def test_a_real_error_stops_the_script_at_once(tmp_path: object) -> None:
    fake = script(tmp_path, ['echo "error: @e1 is not a <select>" >&2; exit 1'])
    b = Browse(fake, dict(os.environ))
    with pytest.raises(TaskFailed, match="not a <select>"):
        b.act("select", "@e1", "x")
    assert b.tally.figures() == {
        "calls": 1,
        "chars": 29,
        "errors": 1,
        "false_errors": 0,
        "rereads": 0,
        "screenshots": 0,
    }


def test_answers_are_read_from_the_tools_output() -> None:
    csv = "<<<untrusted page content nonce=1>>>\nid,name,country\n111,Nortown 111,Norway\n<<<end>>>"
    assert first_cell(csv) == "Nortown 111"
    assert text_value('### Result\n"Nortown 111"\n### Ran Playwright code') == "Nortown 111"
    assert backlink_line("a\n  BACKLINK_TEXT: the text  \nb") == "BACKLINK_TEXT: the text"
    assert backlink_line("nothing here") == ""
    with pytest.raises(NotFound):
        line_with("abc", "z")


def row(calls: int, chars: int, passed: bool = True, **extra: int) -> dict[str, object]:
    return {
        "calls": calls,
        "chars": chars,
        "errors": 0,
        "false_errors": 0,
        "passed": passed,
        "detail": "",
        **extra,
    }


def test_totals_add_up_each_phase() -> None:
    tasks = {
        "a": {"before": row(10, 100), "after": row(6, 50), "playwright-mcp": row(8, 900, schema_chars=20)},
        "b": {"before": row(4, 10, passed=False), "after": row(3, 5)},
    }
    sums = totals(tasks, ["before", "after", "playwright-mcp"])
    assert sums["before"] == {
        "calls": 14,
        "chars": 110,
        "errors": 0,
        "false_errors": 0,
        "rereads": 0,
        "screenshots": 0,
        "schema_chars": 0,
        "passed": 1,
        "tasks": 2,
    }
    assert sums["playwright-mcp"]["tasks"] == 1
    assert sums["playwright-mcp"]["schema_chars"] == 20


def test_the_table_gives_the_change_in_calls_and_the_share_of_mcp_characters() -> None:
    tasks = {
        "a": {"before": row(10, 100), "after": row(6, 50), "playwright-mcp": row(8, 80, schema_chars=20)}
    }
    lines = report.render({"tasks": tasks, "totals": totals(tasks, ["before", "after", "playwright-mcp"])})
    (line,) = [line for line in lines if line.startswith("| a |")]
    assert "| 10 | 6 | -40% |" in line
    assert line.endswith("| 0.50 |")  # 50 / (80 + 20)
    assert "| calls at least 30% fewer than before | 10 → 6 (40% fewer) | yes |" in lines
    assert "| characters ≤ 30% of @playwright/mcp's | 50% | **no** |" in lines


def test_saving_replaces_the_suites_block_and_keeps_the_rest(tmp_path: object) -> None:
    out = str(tmp_path)
    with open(os.path.join(out, "RESULTS.md"), "w") as f:
        f.write("# Benchmark results\n\nother figures\n")
    tasks = {"a": {"after": row(6, 50)}}
    meta = {
        "date": "d",
        "refbrowse": "refbrowse 0",
        "commit": "c",
        "command": "x",
        "machine": {"cores": 2, "cpu": "cpu", "load_at_start": [1.0]},
    }
    report.save(out, {"meta": meta, "result": {"tasks": tasks, "totals": totals(tasks, ["after"])}})
    report.save(out, {"meta": meta, "result": {"tasks": tasks, "totals": totals(tasks, ["after"])}})
    with open(os.path.join(out, "RESULTS.md")) as f:
        text = f.read()
    assert text.count(report.BEGIN) == 1 and "other figures" in text
    assert os.path.exists(os.path.join(out, "results", "agent.json"))


def test_refs_are_read_from_the_added_lines_of_a_diff_and_not_from_removed_ones() -> None:
    diff = "\n".join(
        [
            "--- previous snapshot",
            "+++ this snapshot",
            "@@ -4,3 +4,8 @@",
            '-  - combobox "Priority" @e4: "Normal"',
            '+  - combobox "Priority" @e4 [expanded]: "Normal"',
            ' - button "Save" @e5',
            '+- listbox "Low Normal High Urgent" @e6',
            '+  - option "High" @e9',
            '-- button "Gone" @e3',
        ]
    )
    assert pick(diff, "option", "High") == "e9"
    assert pick(diff, "listbox") == "e6"
    assert pick_near(diff, "Low Normal", "option") == "e9"
    assert pick(diff, "button", "Save") == "e5"  # context lines are the page as it is
    with pytest.raises(NotFound):
        pick(diff, "button", "Gone")


def test_a_retry_refused_as_stale_means_the_first_try_happened(tmp_path: object) -> None:
    fake = script(
        tmp_path,
        [
            '[ "$1" = wait ] && exit 0',
            'stale="error: @e8 (button) changed, or is not in the latest snapshot"',
            '[ -e "$0.once" ] && { echo "$stale" >&2; exit 1; }',
            'touch "$0.once"; echo "error: timed out clicking @e8: Timeout 5000ms exceeded." >&2; exit 4',
        ],
    )
    b = Browse(fake, dict(os.environ))
    b.act("click", "@e8")
    assert b.tally.commands() == ["click (failed)", "wait", "click (failed)"]
    assert b.tally.figures()["false_errors"] == 1
