"""Reports say each thing once, whole, and where it stands: definitions with all their signatures, effects a
short timer brings, the new state of a box or field, popups handed over, diff lines with their place."""

from __future__ import annotations

import re

import pytest
from test_effects import fenced_part
from test_snapshot import ref

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_a_definition_with_two_signatures_is_read_whole_and_a_fragment_prints_it(
    workspace: Workspace, site: Site
) -> None:
    arrived = fenced_part(workspace.ok("goto", site.url("/reports3/functools.html#functools.lru_cache")))
    assert "passage at #functools.lru_cache:\n@functools.lru_cache(user_function)" in arrived, arrived
    assert "lru_cache(maxsize=128, typed=False)\nDecorator to wrap a function" in arrived, arrived
    passage = strip_fence(workspace.ok("read", "#functools.lru_cache"))
    lines = passage.splitlines()
    assert lines[0].startswith("@functools.lru_cache(user_function)"), passage
    assert lines[1] == "@functools.lru_cache(maxsize=128, typed=False)", passage
    assert "cached separately." in passage and "reduce" not in passage, passage
    second = strip_fence(workspace.ok("find", "typed=False")).split()[0]
    assert strip_fence(workspace.ok("read", second)) == passage
    cut = workspace.ok("read", "#functools.lru_cache", "--max-tokens", "30")
    assert "(maxsize=128, typed=False)" in cut and "more characters of this definition left out" in cut, cut


@pytest.mark.parametrize("delay", [150, 600])
def test_a_status_a_submit_shows_on_a_timer_is_in_the_clicks_report(
    workspace: Workspace, site: Site, delay: int
) -> None:
    out = workspace.ok("goto", site.url(f"/reports3/contact.html?delay={delay}"))
    send = ref(fenced_part(out), "button", "Send")
    clicked = workspace.ok("click", send)
    assert "Thanks, your message was sent." in clicked, clicked


def test_a_select_all_box_says_its_new_state_and_the_boxes_it_took_along_on_one_line(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports3/changelist.html")))
    everything = ref(view, "checkbox", "Select all objects on this page for an action")
    rows = [ref(view, "checkbox", f"Select this object for an action - {name}") for name in ("alice", "bob")]
    checked = workspace.ok("check", everything)
    assert checked.splitlines()[0] == f"Checked {everything}: now checked; 5 boxes changed with it", checked
    assert f"~ 5 boxes now checked: {rows[0]} {rows[1]} " in checked, checked
    assert "[checked]" not in checked, checked
    one = workspace.ok("uncheck", rows[1])
    assert one.splitlines()[0] == f"Unchecked {rows[1]}: now unchecked", one
    filled = workspace.ok("fill", rows[1], "yes")
    assert filled.splitlines()[0] == f"Filled {rows[1]}: now checked", filled
    action = ref(view, "combobox", "Action:")
    chosen = workspace.ok("select", action, "export")
    assert chosen.splitlines()[0] == f'Selected export in {action}: now "Export selected users"', chosen


def test_a_popup_is_handed_over_and_closing_itself_reports_what_changed_on_its_opener(
    workspace: Workspace, site: Site
) -> None:
    opener = site.url("/reports/related.html")
    workspace.ok("goto", opener)
    workspace.ok("js", "document.getElementById('add').href = 'related-popup.html?delay=0'")
    opened = workspace.ok("click", "#add")
    assert "now on tab 2 (its view below); `browse closetab` goes back to tab 1" in opened, opened
    popup = fenced_part(opened)
    workspace.ok("fill", ref(popup, "textbox", "Name"), "editors")
    saved = workspace.ok("click", ref(popup, "button", "Save"))
    assert f"this tab closed itself; now on tab 1: {opener}" in saved, saved
    assert re.search(r'^\+- combobox "Group" @e\d+: "editors"$', fenced_part(saved), re.M), saved
    workspace.ok("newtab")
    workspace.ok("tab", "1")
    assert "now on tab 3" in workspace.ok("click", "#add")
    closed = workspace.ok("closetab")
    assert closed.strip() == f"Closed tab 3; current tab 1: {opener}", closed


def test_a_choice_moved_between_rebuilt_lists_is_one_moved_line_and_lines_say_their_list(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports3/horizontal.html")))
    available = ref(view, "listbox", "Available groups")
    chosen = workspace.ok("select", available, "editors")
    assert chosen.splitlines()[0] == f'Selected editors in {available}: now "editors"', chosen
    assert "changed in the interactive view" not in chosen, chosen
    moved = fenced_part(workspace.ok("click", ref(view, "button", "Choose")))
    lines = moved.splitlines()
    went = r'~ option "editors" @e\d+: moved from listbox "Available groups" to listbox "Chosen groups"'
    assert re.fullmatch(went, lines[1]), moved
    again = r'~ re-created as they were, with new refs: option "auditors" @e\d+, option "reviewers" @e\d+, '
    assert re.match(again + r'option "staff" @e\d+$', lines[2]), moved
    assert len(lines) == 3, moved
    both = fenced_part(workspace.ok("click", ref(view, "button", "Suggest")))
    assert re.search(r'in listbox "Available groups":\n\+  - option "fresh" @e\d+\n', both), both
    assert re.search(r'in listbox "Chosen groups":\n\+  - option "fresh" @e\d+', both), both


def test_a_search_that_rebuilds_a_grid_says_its_count_changed_and_not_the_rows_it_remade(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports3/runs.html")))
    search = ref(view, "searchbox", "Search runs")
    workspace.ok("fill", search, "tree")
    pressed = fenced_part(workspace.ok("press", "Enter"))
    assert 'text changed: "8 matching runs" → "5 matching runs"' in pressed, pressed
    assert re.search(r"~ \d+ lines re-created as they were", pressed), pressed
    assert '"calm-dog-2"' in pressed and '"bold-cat-1"' not in pressed, pressed
    assert re.search(r'-- row "linear" @e\d+ · "1.20"', pressed), pressed  # a row that went: its words
    again = workspace.ok("press", "Enter")
    assert "lines re-created as they were" in again and "matching runs" not in again, again
    nothing = workspace.ok("click", ref(view, "heading", "Experiment: demo"))
    assert nothing.splitlines()[1:] == ["nothing changed on the page"], nothing


def test_tables_reads_an_aria_grid_and_a_pinned_grids_half_rows_as_one(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports3/pinned.html"))
    assert strip_fence(workspace.ok("tables")).splitlines() == [
        "Run Name,Model,rmse",
        "bold-cat-1,tree,0.41",
        "calm-dog-2,linear,1.20",
    ]


def test_read_of_a_sections_toggle_gives_that_section_and_a_fragments_passage_comes_first(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports3/sections.html")))
    parameters = strip_fence(workspace.ok("read", ref(view, "button", "Parameters")))
    assert parameters.startswith("Parameters\n") and "max_depth" in parameters, parameters
    assert "decision tree" not in parameters and "rmse" not in parameters, parameters
    metrics = strip_fence(workspace.ok("read", ref(view, "button", "Metrics")))
    assert metrics.startswith("Metrics\n") and "rmse" in metrics and "max_depth" not in metrics, metrics
    arrived = fenced_part(workspace.ok("goto", site.url("/reports3/functools.html#functools.lru_cache")))
    assert arrived.startswith("passage at #functools.lru_cache:\n"), arrived


def test_a_link_inside_a_sentence_is_hinted_by_the_whole_sentence(workspace: Workspace, site: Site) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports3/changelist.html")))
    assert '- link "alice" @e' in view and '(row "The user “alice” was changed successful…")' in view, view


def test_a_sites_banner_and_sidebar_are_said_once_and_their_refs_still_listed(
    workspace: Workspace, site: Site
) -> None:
    first = fenced_part(workspace.ok("goto", site.url("/reports3/admin-users.html")))
    assert '- link "Permissions" @e' in first and '- link "Log out" @e' in first, first
    second = fenced_part(workspace.ok("click", ref(first, "link", "Groups")))
    sidebar = re.search(
        r'^- navigation "Sidebar" (@e\d+): the same 6 links as before \(`browse snapshot', second, re.M
    )
    assert sidebar and re.search(r"^- banner @e\d+: the same 4 links as before", second, re.M), second
    assert '- link "Permissions"' not in second and '- link "Add groups" @e' in second, second
    listed = strip_fence(workspace.ok("snapshot", "-i", "-s", sidebar.group(1)))
    assert '- link "Permissions" @e' in listed, listed


def test_a_menu_said_once_counts_its_buttons_with_its_links(workspace: Workspace, site: Site) -> None:
    # Wagtail's main menu: Pages, Reports, Settings, Help are buttons that open submenus; the line
    # said "the same 2 links" for six controls.
    menu = "".join(
        f"<li><button aria-expanded=false>{b}</button></li>" for b in ("Pages", "Reports", "Settings")
    )
    menu += "<li><a href=/images>Images</a></li><li><a href=/documents>Documents</a></li>"
    nav = f"<nav aria-label='Main menu'><ul>{menu}</ul></nav>"
    second = site.page("/reports3/menu-two", f"{nav}<h1>Two</h1>")
    workspace.ok("goto", site.page("/reports3/menu-one", f"{nav}<h1>One</h1><a href='{second}'>Next</a>"))
    again = fenced_part(workspace.ok("goto", second))
    assert re.search(
        r'^- navigation "Main menu" @e\d+: the same 3 buttons and 2 links as before', again, re.M
    ), again


def test_a_diff_of_a_view_never_taken_names_the_view_that_was(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports3/admin-users.html"))
    workspace.ok("snapshot", "-i")
    said = strip_fence(workspace.ok("snapshot", "-D")).splitlines()[0]
    assert said == (
        "(no previous snapshot of this view; the last was `snapshot -i`: `snapshot -i -D` diffs it)"
    ), said


def test_a_cells_output_is_in_the_report_of_running_it_beside_the_new_cells_controls(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports3/notebook.html")))
    ran = fenced_part(workspace.ok("click", ref(view, "button", "Run this cell")))
    assert 'button "Delete the cell"' in ran and re.search(r'^text appeared: "(\[ \]: )?42"$', ran, re.M), ran
