"""`select` on menus and lists as real apps draw them: checkbox items, hidden option copies, a list shown."""

from __future__ import annotations

import pytest
from tests.conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture
def choices(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/choices.html"))


def test_a_menu_of_checkbox_items_gets_its_item_clicked(workspace: Workspace, choices: None) -> None:
    out = workspace.ok("select", "#sort", "val_auc")
    assert "sorted by val_auc" in out


def test_an_option_shown_as_a_plain_element_beside_hidden_copies_is_clicked(
    workspace: Workspace, choices: None
) -> None:
    out = workspace.ok("select", "#model", "Create New Model")
    assert "model: Create New Model" in out


def test_a_list_already_shown_gets_its_option_clicked_not_its_middle(
    workspace: Workspace, choices: None
) -> None:
    out = workspace.ok("select", "#helpers", "Toggle")
    assert "helper: Toggle" in out and "Derivative" not in out


def test_a_missing_item_says_what_was_clicked_and_what_appeared(workspace: Workspace, choices: None) -> None:
    result = workspace.run("select", "#tools", "Archive")
    assert result.code == 1
    assert 'showed no option "Archive" (select clicked #tools once, on "Tools")' in result.err
    assert "what appeared: Rename, Duplicate" in result.err
    result = workspace.run("select", "#helpers", "Gauge")
    assert result.code == 1 and "clicked" not in result.err  # nothing was clicked
    assert "its options are: Button, Counter" in result.err


def test_fill_takes_a_new_value_through_the_boxs_add_item(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/tags.html"))
    out = workspace.ok("fill", "#key", "status")
    assert '#key took "status" as a new value: fill chose the box\'s item that adds it' in out
    assert "key: status" in out
    out = workspace.ok("fill", "#key", "owner")  # a known key: its option as a person sees it
    assert "key: owner" in out and "new value" not in out


def test_fill_adds_to_a_box_of_chips_with_enter_and_says_so(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/tags.html"))
    out = workspace.ok("fill", "#alias", "champion")
    assert 'listed no option "champion": fill pressed Enter, which adds it to the box' in out
    assert "alias: champion" in out


def test_fill_picks_the_option_a_search_field_lists_for_what_was_typed(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/input/tags.html"))
    assert "label added: urgent" in workspace.ok("fill", "#labels", "urgent")
