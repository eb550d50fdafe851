"""`select` on dropdowns drawn by component libraries: opened, then the named option clicked, in one call."""

from __future__ import annotations

import re

import pytest
from test_snapshot import ref, snap

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PAGE = "/input/dropdowns.html"


def test_a_combobox_field_gets_its_option_and_says_what_it_shows(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    mood = ref(snap(workspace, "-i"), "combobox", "Mood")
    printed = workspace.ok("select", mood, "sad")
    assert printed.splitlines()[0] == f'Selected sad in {mood}: now "sad"', printed
    assert 'combobox "Mood"' in snap(workspace, "-i") and '"sad"' in snap(workspace, "-i")


def test_a_button_with_a_listbox_drawn_elsewhere_gets_its_option(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    size = ref(snap(workspace, "-i"), "button", "Small")
    printed = workspace.ok("select", size, "large")  # names match ignoring case when only one does
    assert printed.splitlines()[0] == f'Selected large in {size}: now "Large"', printed
    assert ref(snap(workspace, "-i"), "button", "Large")


def test_a_menu_button_gets_its_menu_item_clicked(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    actions = ref(snap(workspace, "-i"), "button", "Actions")
    workspace.ok("select", actions, "Archive")
    assert "last action: Archive" in workspace.ok("text")


def test_a_missing_option_lists_the_options_and_leaves_the_dropdown_closed(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url(PAGE))
    mood = ref(snap(workspace, "-i"), "combobox", "Mood")
    result = workspace.run("select", mood, "furious")
    assert result.code == 1, result
    assert f'{mood} has no option "furious"' in result.err
    assert "its options are: happy, sad, calm" in result.err  # names as read, without the check mark
    assert 'option "happy"' not in snap(workspace, "-i")  # Escape closed it


def test_an_element_that_is_no_dropdown_says_so(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    plain = ref(snap(workspace, "-i"), "button", "Plain")
    result = workspace.run("select", plain, "x")
    assert result.code == 1, result
    assert "is not a <select> or a dropdown" in result.err


def test_a_box_that_takes_several_gets_each_option_and_its_list_is_closed_after(
    workspace: Workspace, site: Site
) -> None:
    # Gradio's and Streamlit's multiselects: the list stays open after a pick, over the fields below
    workspace.ok("goto", site.url(PAGE))
    view = snap(workspace, "-i")
    tops, gift = ref(view, "combobox", "Toppings"), ref(view, "checkbox", "Gift wrap")
    printed = workspace.ok("select", tops, "Honey", "Nuts")
    assert printed.splitlines()[0] == f"Selected Honey, Nuts in {tops}", printed
    assert re.search(r'button "Remove 0" @e\d+ \(near "Honey"\)', printed), printed  # an index says no token
    assert "options available" not in printed, printed  # a count for screen readers: the list is said
    assert "Honey Nuts" in workspace.ok("text")
    assert 'option "Cream"' not in snap(workspace, "-i")  # closed once picked
    assert "now checked" in workspace.ok("check", gift)  # no longer under the list


def test_a_box_of_one_option_given_two_says_which_it_took(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    mood = ref(snap(workspace, "-i"), "combobox", "Mood")
    result = workspace.run("select", mood, "happy", "sad")
    assert result.code == 1, result
    assert f'{mood} took "happy" and takes one option: sad not selected' in result.err, result.err
