"""Reports say each thing once and where it stands: a change list's row as one line of its cells' words, the
chosen filter marked, the lines in view first on a page opened at a fragment, prose link clouds folded."""

from __future__ import annotations

import re

import pytest
from test_effects import fenced_part

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_a_change_lists_rows_say_their_cells_and_the_chosen_filter_and_page_are_marked(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports4/filters.html")))
    row = r'- row "alice@example.com · True"\n  - checkbox "Select this object for an action - alice" @e\d+\n'
    assert re.search(row + r'  - link "alice" @e\d+\n', view), view
    assert re.search(r'- link "Users" @e\d+ \[current\]', view), view
    assert re.search(r'- link "Yes" @e\d+ \[selected\]', view), view
    assert re.search(r'- link "Groups" @e\d+\n', view) and re.search(r'- link "No" @e\d+\n', view), view
    assert re.search(r'- link "every" @e\d+\n', view), view  # a class every item has chooses none
