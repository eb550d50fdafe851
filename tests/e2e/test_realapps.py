"""What real applications showed, reduced to fixtures: each test is a page shaped like the application's
own (named in the fixture) and what an agent reading `browse`'s output needs from it."""

from __future__ import annotations

import re

import pytest
from tests.conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def line_of(view: str, ref: str) -> str:
    return next(line for line in view.splitlines() if re.search(rf"{ref}\b", line))


def test_an_unnamed_checkbox_in_a_grid_says_its_columns_header(workspace: Workspace, site: Site) -> None:
    # Roundup's search page: one row a field, one column each for show, sort on and group on; the
    # checkbox and radios have no label but the column's header.
    view = workspace.ok("goto", site.url("/realapps/roundup-search.html"))
    refs = re.findall(r"^\s*- (?:checkbox|radio) (@e\d+)", view, re.M)
    assert len(refs) == 7, view
    show_title, sort_title, show_priority, sort_priority, group_priority, no_sort, no_group = refs
    assert '(column "Display")' in line_of(view, show_title)
    assert '(column "Sort on")' in line_of(view, sort_title)
    assert '(column "Display")' in line_of(view, show_priority)
    assert '(column "Group on")' in line_of(view, group_priority)
    assert '(column "Sort on")' in line_of(view, no_sort)
    assert '(column "Group on")' in line_of(view, no_group)
    assert '(row "No Sort or group:")' in line_of(view, no_group)
    assert "column" not in line_of(view, "textbox")  # a field its row names needs no column
    out = workspace.ok("check", sort_priority)
    assert "checked" in out


def test_arrows_repeated_in_one_row_say_the_word_beside_them(workspace: Workspace, site: Site) -> None:
    # Roundup's calendar: `< November >` and `< 2026 >` in one row; the row's first word named all four.
    view = workspace.ok("goto", site.url("/realapps/roundup-calendar.html"))
    arrows = [line for line in view.splitlines() if re.search(r'link "[<>]"', line)]
    assert len(arrows) == 4, view
    assert ['(near "November")' in a for a in arrows] == [True, True, False, False], view
    assert ['(near "2026")' in a for a in arrows] == [False, False, True, True], view


def test_a_control_named_by_a_symbol_alone_says_the_words_of_its_row(
    workspace: Workspace, site: Site
) -> None:
    # Trac's query: `button "–"` removed some filter, and nothing said which.
    view = workspace.ok("goto", site.url("/realapps/trac-filters.html"))
    assert re.search(r'- button "–" @e\d+ \(row "Status"\)', view), view
    assert re.search(r'- button "Update" @e\d+\n', view), view  # a name in words needs no hint
