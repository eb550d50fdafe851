"""What names a control that holds other controls (its title), and what places one inside an article."""

from __future__ import annotations

from refbrowse.daemon.page.snapshot.hints import row_of
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


def _article(links: int) -> tuple[Node, Node]:
    heading = Node("heading", "Python-Markdown ¶", pw_ref="e2")
    edit = Node("link", "Edit", pw_ref="e3")
    body = [Node("link", f"Option {n}", pw_ref=f"e{10 + n}") for n in range(links)]
    article = Node("article", children=[heading, edit, *body])
    for child in article.children:
        if isinstance(child, Node):
            child.parent = article
    return article, edit


def test_a_control_in_a_card_is_placed_by_the_cards_title_but_not_in_a_pages_whole_article() -> None:
    _, edit = _article(3)
    assert row_of(edit) == "Python-Markdown ¶"  # a note's toolbar: its title says which note
    _, edit = _article(40)
    assert row_of(edit) == ""  # mkdocs' article is the page: its first heading places nothing
