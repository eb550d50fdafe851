"""An action that leaves the controls as they were says the text it brought into view."""

from __future__ import annotations

import pytest
from test_effects import fenced_part
from test_snapshot import ref, snap

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_an_accordion_without_states_says_the_text_it_showed(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports/reveal.html"))
    details = ref(snap(workspace, "-i"), "button", "Details ▼")
    printed = workspace.ok("click", details)
    assert fenced_part(printed) == 'text appeared: "Ships in 3 days."', printed
    closed = workspace.ok("click", details)  # closing it brings nothing: the report is its first line
    assert closed.strip() == f"Clicked {details}", closed


def test_much_new_text_is_quoted_a_few_lines_with_the_command_for_the_rest(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/reveal.html"))
    specs = ref(snap(workspace, "-i"), "button", "Specifications")
    printed = workspace.ok("click", specs)
    assert fenced_part(printed).splitlines() == [
        'text appeared: "Weight: 2 kg"',
        'text appeared: "Width: 30 cm"',
        'text appeared: "Height: 20 cm"',
    ], printed
    assert printed.rstrip().endswith("\n… 2 more lines of new text: `browse text`"), printed  # ours: unfenced


def test_a_click_that_changes_nothing_says_nothing_more(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports/reveal.html"))
    nothing = ref(snap(workspace, "-i"), "button", "Does nothing")
    assert workspace.ok("click", nothing).strip() == f"Clicked {nothing}"
