"""What names a control that holds other controls: its title, never its controls' words."""

from __future__ import annotations

from refbrowse.daemon.page.snapshot.roles import title_of
from refbrowse.daemon.page.snapshot.tree import Node


def _tray() -> Node:
    # Node-RED's edit tray: a draggable panel, its title, then its buttons and fields
    title = Node("generic", children=["Edit inject node"])
    buttons = [Node("button", name, pw_ref=f"e{n}") for n, name in enumerate(("Delete", "Cancel", "Done"))]
    field = Node("textbox", "Name", pw_ref="e9")
    return Node("generic", pw_ref="e78", children=[title, *buttons, "Properties", field])


def test_a_panel_that_holds_controls_is_named_by_the_words_before_them() -> None:
    assert title_of(_tray()) == "Edit inject node"


def test_a_panel_whose_first_thing_is_a_control_has_no_title_and_no_words_of_its_controls() -> None:
    tray = _tray()
    tray.children = tray.children[1:]
    assert title_of(tray) == ""


def test_a_control_with_no_control_inside_is_left_to_its_own_text() -> None:
    assert title_of(Node("generic", pw_ref="e3", children=["inject"])) is None
