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


def test_a_heading_that_unfolds_its_form_says_the_form_once(workspace: Workspace, site: Site) -> None:
    # Trac's "Modify Ticket": a foldable heading whose link points at its own id (#no3). The click
    # printed the form as a passage, as the diff and as text that appeared; and the page scrolled, so
    # the footer's links left the viewport and flipped into the text's link line (a change of nothing).
    view = workspace.ok("goto", site.url("/realapps/trac-modify.html"))
    toggle = re.search(r'link "Modify Ticket" (@e\d+)', view)
    assert toggle, view
    report = workspace.ok("click", toggle.group(1))
    assert "#no3 (same document)" in report, report
    assert re.search(r'\+- textbox "Summary:" @e\d+: "Login fails"', report), report
    assert "passage at" not in report, report  # the diff says the form, with refs
    assert 'text appeared: "Summary:"' not in report and "Type: · Priority:" not in report, report
    assert "links in the text" not in report and "gone" not in report, report
    assert "The owner will remain somebody." in report, report  # words the diff does not say


def test_a_modal_over_a_dark_mask_says_its_controls_once_and_no_change_of_scheme(
    workspace: Workspace, site: Site
) -> None:
    # MLflow's rename dialog: the middle of the window is the modal's translucent mask, read as the page
    # turning dark; each of the dialog's controls is one line of the report.
    view = workspace.ok("goto", site.url("/realapps/mlflow-rename.html"))
    rename = re.search(r'button "Rename" (@e\d+)', view)
    assert rename, view
    report = workspace.ok("click", rename.group(1))
    assert "colour scheme" not in report, report
    refs = re.findall(r'(?:button|textbox) "(?:Close|New experiment name|Cancel|Save)"[^\n]*?(@e\d+)', report)
    assert len(refs) == 4 and len(set(refs)) == 4 and "(listed above)" not in report, report


def test_a_terminal_says_the_lines_it_printed_once(workspace: Workspace, site: Site) -> None:
    # xterm.js's DOM renderer with its screen reader's list: each printed line is there twice, and the
    # screen is one element named by all its text.
    view = workspace.ok("goto", site.url("/realapps/xterm-echo.html"))
    terminal = re.search(r'textbox "Terminal input" (@e\d+)', view)
    assert terminal, view
    workspace.ok("type", terminal.group(1), "echo hello")
    report = workspace.ok("press", "Enter")
    assert report.count('text appeared: "hello"') == 1 and report.count('text appeared: "$"') == 1, report
    assert "Welcome to the demo shell" not in report, report  # the screen's whole text, before and after


def test_icon_buttons_notes_and_counts_say_what_they_are(workspace: Workspace, site: Site) -> None:
    # TiddlyWiki: buttons styled `tc-btn-invisible` around an SVG icon, a note's toolbar before its
    # title, and the control panel's counts (a button of digits beside its label).
    view = workspace.ok("goto", site.url("/realapps/tiddlywiki-story.html"))
    assert "invisible" not in view  # how a button looks names nothing
    assert re.search(r'button "remove tag" @e\d+', view), view  # its own class, not its icon's too
    clear = re.search(r'button "close" (@e\d+)\s*$', view, re.M)  # no class words of its own: its icon's
    assert clear, view
    assert "search cleared" in workspace.ok("click", clear.group(1))
    closes = re.findall(r'button "close" (@e\d+) \(row "([^"]+)"\)', view)
    assert [note for _, note in closes] == ["Shopping", "GettingStarted"], view  # the note's title
    assert "closed GettingStarted" in workspace.ok("click", closes[1][0])
    assert re.search(r'button "0" @e\d+ \(row "Number of tags"\)', view), view
    assert re.search(r'button "2349" @e\d+ \(row "Number of shadow tiddlers"\)', view), view


def test_an_editor_whose_classes_share_one_prefix_names_its_icons_parts_and_dialog(
    workspace: Workspace, site: Site
) -> None:
    # Node-RED's editor: `red-ui-` on every class, icon buttons named by their ids, palette nodes of
    # three parts, a dialog over an absolutely placed shade, a node's button drawn as a rect on a rect.
    view = workspace.ok("goto", site.url("/realapps/nodered-editor.html"))
    top = view.split("\n- ")[0]
    assert "⚠ blocking full-screen layer" in top and 'button "No, do not enable notifications"' in top, view
    for name in ("deploy options", "sidemenu", "zoom in", "angle double up"):
        assert re.search(rf'- (link|button) "{name}" @e\d+', view), (name, view)  # no "red", "ui", "footer"
    assert "red " not in view.replace("Node-RED", "")
    assert "Import" not in view  # the hidden submenu's words are nobody's name
    for node in ("inject", "debug", "function"):
        assert len(re.findall(rf'"{node}" @', view)) == 1, view  # one palette node, one ref
    assert "swatch" not in view  # a node's port is part of it
    assert re.search(r'- checkbox @e\d+ \(near "Inject once after"\)', view), view  # its words follow it
    no = re.search(r'button "No, do not enable notifications" (@e\d+)', view)
    assert no
    workspace.ok("click", no.group(1))
    button = re.search(r'rectangle "flow node button[^"]*" (@c\d+)', view)
    assert button, view
    assert "injected: timestamp" in workspace.ok("click", button.group(1))  # not "covered" by its own rect


def test_a_button_whose_name_holds_an_icon_glyph_is_clicked_by_its_ref(
    workspace: Workspace, site: Site
) -> None:
    # Node-RED's typed input: a caret drawn by an icon font's ::before is in the role engine's name,
    # not in the snapshot's; the ref's "still the same element" check must not call it changed.
    view = workspace.ok("goto", site.url("/realapps/nodered-editor.html"))
    no = re.search(r'button "No, do not enable notifications" (@e\d+)', view)
    assert no
    workspace.ok("click", no.group(1))
    trigger = re.search(r'button "milliseconds since epoch" (@e\d+)', view)
    assert trigger, view
    assert "formats shown" in workspace.ok("click", trigger.group(1))
    # its type's button: glyphs alone inside, which the browser takes for its name over its title
    kind = re.search(r'button "timestamp" (@e\d+)', view)
    assert kind, view
    assert "types shown" in workspace.ok("click", kind.group(1))


def test_icon_buttons_of_a_built_app_are_not_named_by_its_class_hashes(
    workspace: Workspace, site: Site
) -> None:
    # Gradio (Svelte) and Streamlit (Emotion): every class carries a build's hash (`svelte-16sct4k`,
    # `e1vju3fw0`), which named the icons `button "calendar 16sct4k"`, `button "3jwzs9 padded"`.
    view = workspace.ok("goto", site.url("/realapps/gradio-icons.html"))
    for name in ("calendar", "green swatch", "submit"):
        assert re.search(rf'- button "{name}" @e\d+\n', view), (name, view)
    assert re.search(r"- button @e\d+\n", view), view  # its kind and look are all its classes say
    names = " ".join(re.findall(r'- button "([^"]*)"', view))
    assert not re.search(r"svelte|emotion|cache|padded|\d", names), view


def test_a_widget_apps_labels_date_segments_and_calendar_say_each_control_once(
    workspace: Workspace, site: Site
) -> None:
    # Streamlit and Gradio: a label's words in a paragraph beside its control, a date of editable
    # spinbuttons, a calendar whose cells each hold one day button. Each was said twice.
    view = workspace.ok("goto", site.url("/realapps/streamlit-form.html"))
    assert '- "Fruit"' not in view and '- "Gift wrap"' not in view, view
    assert '- "Pick your order below."' in view and '- "No date picked"' in view, view  # words of their own
    assert view.count("day, Delivery date") == 1 and "textbox" not in view, view
    assert '"/"' not in view, view  # the mark between the date's parts, hidden from screen readers
    assert "gridcell" not in view, view
    day = re.search(r'button "Friday, December 25, 2026" (@e\d+)', view)
    assert day, view
    assert "Picked December 25" in workspace.ok("click", day.group(1))


def test_a_grids_cell_is_filled_by_opening_its_editor_typing_and_committing(
    workspace: Workspace, site: Site
) -> None:
    # Gradio's dataframe: `fill` of a cell answered "not a text field"; it took a double click, a
    # fill of the box that opened and an Enter.
    view = workspace.ok("goto", site.url("/realapps/gradio-dataframe.html"))
    price = re.search(r'row "Banana" @e\d+ · "0\.25" (@e\d+)', view)
    assert price, view
    report = workspace.ok("fill", price.group(1), "0.5")
    assert report.startswith(f'Filled {price.group(1)}: now "0.5"'), report
    assert 'text changed: "Total: 1.75" → "Total: 2"' in report, report
    name = re.search(r'row "Apple" (@e\d+)', view)
    assert name, view
    result = workspace.run("fill", name.group(1), "Pear")  # the read-only column
    assert result.code == 1 and "is read-only" in result.err, result.err


def test_a_grid_drawn_on_a_canvas_says_its_table_and_how_to_read_it(workspace: Workspace, site: Site) -> None:
    # Streamlit's dataframe: only `canvas "702×140"` and "only mouse reaches inside", while `tables`
    # reads the table the grid keeps inside its canvas for screen readers.
    view = workspace.ok("goto", site.url("/realapps/streamlit-dataframe.html"))
    drawn = r'canvas "table of 2 rows \(item, price\), 300×100" @c\d+ \(`browse tables` reads'
    assert re.search(drawn, view), view
    assert "Banana,0.25" in workspace.ok("tables")
