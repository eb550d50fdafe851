"""`select` on menu buttons drawn without menu roles: the opening click and the item's, in one call."""

from __future__ import annotations

import pytest
from test_snapshot import ref, snap

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PAGE = "/input/menus.html"


def test_a_toggle_that_says_it_expands_gets_the_button_it_reveals_clicked(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url(PAGE))
    more = ref(snap(workspace, "-i"), "button", "More actions")
    printed = workspace.ok("select", more, "publish")  # the only item of that name, ignoring case
    assert printed.splitlines()[0] == f'Clicked "publish" in the menu of {more}', printed
    assert "navigated to " in printed and "action=publish" in printed  # the item's effect is the report's
    assert "published: Opening hours" in workspace.ok("text")


def test_a_flyout_that_lists_its_links_a_moment_after_it_opens_gets_the_link_clicked(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url(PAGE))
    pages = ref(snap(workspace, "-i"), "button", "Pages")
    workspace.ok("select", pages, "Home")  # its "Close explorer" button shows first, Home after a fetch
    assert "exploring home" in workspace.ok("text")


def test_an_icon_with_no_role_that_shows_links_gets_the_link_it_shows_clicked(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url(PAGE))
    icon = ref(snap(workspace, "-i"), "img", "")
    printed = workspace.ok("select", icon, "Sort descending")
    assert "_sort_desc=population" in printed, printed
    assert "sorted by population descending" in workspace.ok("text")


def test_an_element_that_says_nothing_of_its_popup_gets_the_option_it_shows_clicked(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url(PAGE))
    order = ref(snap(workspace, "-i"), "button", "Order: newest")
    printed = workspace.ok("select", order, "Oldest")
    assert printed.splitlines()[0] == f'Clicked "Oldest" in the menu of {order}', printed
    assert ref(snap(workspace, "-i"), "button", "Order: oldest")


def test_a_missing_item_lists_what_the_menu_showed_and_closes_it(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    icon = ref(snap(workspace, "-i"), "img", "")
    result = workspace.run("select", icon, "Delete")
    assert result.code == 1, result
    assert f'the menu of {icon} has no item "Delete"' in result.err
    assert "its items are: Sort ascending, Sort descending, Facet by this" in result.err
    assert "Sort ascending" not in snap(workspace, "-i")  # this menu closes only on a click outside it
    more = ref(snap(workspace, "-i"), "button", "More actions")
    assert workspace.run("select", more, "Archive").code == 1
    assert 'button "Publish"' not in snap(workspace, "-i")  # Escape closed it


def test_a_button_whose_click_shows_no_buttons_or_links_is_no_menu(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    shown = snap(workspace, "-i")
    result = workspace.run("select", ref(shown, "button", "Show help"), "x")
    assert result.code == 1, result
    assert "is not a <select> or a dropdown: clicking it showed no new buttons or links" in result.err


def test_a_submit_button_is_not_opened_as_a_menu(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url(PAGE))
    result = workspace.run("select", ref(snap(workspace, "-i"), "button", "Save draft"), "x")
    assert result.code == 1, result
    assert "select does not open a link, a submit button or a field as a menu" in result.err
    assert workspace.ok("url").strip().endswith(PAGE)  # the form was not submitted
