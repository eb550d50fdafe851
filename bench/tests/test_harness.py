"""The harness's own arithmetic and parsing: run with `.venv/bin/pytest bench/tests`.

No browser here: these are the pieces whose mistakes would silently skew the
figures (pairing of runs, the order tools take turns in, reading refs out of
three tools' snapshot formats).
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from harness.stats import NotAvailable, ToolFailed, alternate, figure, pair_ratios, rotated
from harness.tool import actionable_refs, find_ref, snapshot_refs

REFBROWSE = """<<<untrusted page content from http://x/ nonce=1>>>
title: "Log in"
- main @e7
  - textbox "Username" @e9
  - button "Log \\"now\\" [ref=e2]" @e11
  - link "Home" @e3 → /app/search
~96 tokens
<<<end untrusted page content nonce=1>>>"""

AGENT_BROWSER = """- heading "Log in" [level=1, ref=e2]
- textbox "Username" [ref=e7]
- combobox "Shipping" [expanded=false, ref=e34]: Standard
- checkbox "Gift wrap" [checked=false, ref=e35]"""

PLAYWRIGHT_MCP = """### Snapshot
```yaml
- generic [active] [ref=e1]:
  - link "link" [ref=e3] [cursor=pointer]:
    - /url: /x
  - button "Go" [ref=e4]
```"""


def test_ratios_pair_run_by_run_and_skip_holes() -> None:
    assert pair_ratios([1.0, None, 3.0], [2.0, 2.0, None]) == [0.5]


def test_each_run_starts_with_the_next_tool() -> None:
    assert [rotated("abc", turn) for turn in range(3)] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]


def test_a_tool_without_the_command_is_skipped_and_a_failed_run_leaves_a_hole() -> None:
    def step(name: str, turn: int) -> float:
        if name == "missing":
            raise NotAvailable("no such command")
        if turn == 1:
            raise ToolFailed("once")
        return 1.0

    samples = alternate(["ours", "missing"], 3, step)
    assert samples == {"ours": [1.0, None, 1.0], "missing": []}
    assert figure(samples, "ours")["summary"]["missing"] is None


def test_refs_are_read_from_each_tools_snapshot_format() -> None:
    assert find_ref(REFBROWSE, "textbox", "Username") == "e9"
    assert find_ref(AGENT_BROWSER, "combobox", "Shipping") == "e34"
    assert find_ref(PLAYWRIGHT_MCP, "button", "Go") == "e4"


def test_a_name_that_imitates_a_ref_does_not_become_one() -> None:
    assert find_ref(REFBROWSE, "button", "Log") == "e11"


def test_a_missing_element_is_a_failed_run_not_a_wrong_ref() -> None:
    with pytest.raises(ToolFailed):
        find_ref(AGENT_BROWSER, "button", "Place order")


def test_actionable_refs_count_only_roles_an_agent_acts_on() -> None:
    assert [role for role, _, _ in snapshot_refs(AGENT_BROWSER)] == [
        "heading",
        "textbox",
        "combobox",
        "checkbox",
    ]
    assert actionable_refs(AGENT_BROWSER) == 3
    assert actionable_refs(REFBROWSE) == 3


def test_speed_targets_compare_medians_with_the_peers_and_say_which_are_met() -> None:
    from harness import report
    from harness.context import OURS

    def fig(ours: float, theirs: float, pwcli: float = 0.0, mcp: float = 0.0) -> dict[str, object]:
        summary = {OURS: {"median": ours}, "agent-browser": {"median": theirs}}
        if pwcli:
            summary["playwright-cli"] = {"median": pwcli}
        if mcp:
            summary["refbrowse via MCP"] = {"median": mcp}
        return {"summary": summary}

    rows = report._speed_targets(
        {
            "warm": {
                "act-and-see click": fig(0.020, 0.010, pwcli=0.040),
                "url": fig(0.008, 0.004, mcp=0.003),
            },
            "task": {"wall time": fig(0.7, 0.8)},
        }
    )
    assert rows == [
        "| act-and-see `click` (report included) ≤ 1.0× agent-browser's `click` + `snapshot -i` "
        "| 20 vs 10 ms (2.00×) | **no** |",
        "| act-and-see `click` (report included) ≤ 1.0× @playwright/cli's `click` + `snapshot` "
        "| 20 vs 40 ms (0.50×) | yes |",
        "| `url` ≤ 2.0× agent-browser's | 8 vs 4 ms (2.00×) | yes |",
        "| MCP: `url` ≤ 1.0× agent-browser's CLI | 3 vs 4 ms (0.75×) | yes |",
        "| scripted task, wall time ≤ 1.0× agent-browser's | 0.70 vs 0.80 s (0.87×) | yes |",
    ]


def test_big_document_snapshot_targets_compare_one_sample_per_docs_page() -> None:
    from harness import report
    from harness.context import OURS

    def cell(seconds: float) -> dict[str, object]:
        return {"interactive": {"seconds": seconds, "chars": 10}}

    pages = {
        "/fixtures/warm.html": {OURS: cell(0.01), "agent-browser": cell(0.02)},
        "/docs/library/os.html": {OURS: cell(1.5), "agent-browser": cell(1.2)},
    }
    rows = report._big_snapshot_targets({"snapshots": {"pages": pages}})
    assert rows == [
        "| `/docs/library/os.html`: `snapshot -i` time ≤ 1.0× agent-browser's (one sample) "
        "| 1,500 vs 1,200 ms (1.25×) | **no** |"
    ]


def test_act_and_see_adds_a_snapshot_only_for_tools_whose_action_does_not_show_the_page() -> None:
    from harness.tool import Tool

    class Quiet(Tool):
        def snapshot(self, interactive: bool) -> str:
            return f"[snapshot i={interactive}]"

    class Reporting(Quiet):
        action_shows_page = True

    assert Quiet().act_and_see(lambda: "clicked ") == "clicked [snapshot i=True]"
    assert Reporting().act_and_see(lambda: "clicked, report") == "clicked, report"
