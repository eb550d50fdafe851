"""The interactive view's folds, on lines built by hand: a long run of numbered links is one line."""

from __future__ import annotations

from refbrowse.daemon.page.snapshot import linkcloud
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.snapshot.view import Line


def _link(name: str, ref: int) -> Line:
    return Line(0, f'- link "{name}" @e{ref}', -1, Node("link", name, short_ref=f"@e{ref}"))


def test_a_data_tables_hundred_row_links_are_one_line_that_says_how_to_find_each_ref() -> None:
    lines = [Line(0, '- button "Apply" @e9', -1, Node("button", "Apply", short_ref="@e9"))]
    lines += [_link(str(n), 25 + n) for n in range(1, 101)] + [_link("Next page", 126)]
    folded = [line.render() for line in linkcloud.fold(lines)]
    assert folded == [
        '- button "Apply" @e9',
        '- link "1"…"100" @e26…@e125 (100 links; "N" is @e(N+25))',
        '- link "Next page" @e126',
    ]


def test_a_months_days_and_numbers_out_of_step_stay_one_a_line() -> None:
    days = [_link(str(n), 40 + n) for n in range(1, 32)]
    assert linkcloud.fold(days) == days  # a calendar's 31 days: named one by one
    spread = [_link(str(3 * n), 40 + n) for n in range(1, 50)]
    assert linkcloud.fold(spread) == spread  # row ids with gaps: no rule gives their refs


def test_a_headings_own_permalink_is_no_line_of_its_own() -> None:
    heading = Node("heading", "Goals", short_ref="@e4")
    mark = Node("link", "¶", short_ref="@e5", props={"url": "#goals"}, parent=heading)
    away = Node("link", "¶", short_ref="@e6", props={"url": "/elsewhere"}, parent=heading)
    lines = [
        Line(0, '- heading "Goals" @e4 [level=2]', -1, heading, [1, 2]),
        Line(1, '- link "¶" @e5', 0, mark),
        Line(1, '- link "¶" @e6', 0, away),
    ]
    assert [line.render() for line in linkcloud.fold(lines)] == [
        '- heading "Goals" @e4 [level=2]',
        '  - link "¶" @e6',
    ]
