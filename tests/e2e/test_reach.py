"""Reach on real Chromium: what a person can act on in a page built of plain elements and listeners gets a
ref in `snapshot -i` and in the arrival view, named by its words, title, icon class or colour."""

from __future__ import annotations

import json
import re

import pytest
from tests.conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def js(workspace: Workspace, expr: str) -> object:
    out = workspace.ok("--json", "--raw", "js", expr)
    return json.loads(out)["data"]["value"]


def ref_of(view: str, line_start: str) -> str:
    """The ref on the line of `view` that starts (after its dash) with `line_start`."""
    for line in view.splitlines():
        if line.strip().startswith("- " + line_start):
            found = re.search(r"@[ec]\d+", line)
            assert found, line
            return found.group(0)
    raise AssertionError(f"no line starts with {line_start!r} in:\n{view}")


@pytest.fixture(scope="module")
def arrival(workspace: Workspace, site: Site) -> str:
    return workspace.ok("goto", site.url("/reach/oldschool.html"))


def test_an_anchor_without_href_that_a_delegating_listener_catches_is_a_link(
    workspace: Workspace, arrival: str
) -> None:
    prev = ref_of(arrival, 'link "Prev"')
    out = workspace.ok("click", prev)
    assert "February 2026" in out
    assert js(workspace, "document.getElementById('month').textContent") == "February 2026"


def test_items_of_a_list_with_a_mousedown_listener_have_refs_to_drag(
    workspace: Workspace, arrival: str
) -> None:
    for name in ("Alpha", "Bravo", "Krissie"):
        assert ref_of(arrival, f'listitem "{name}"')


def test_a_word_with_a_listener_inside_a_paragraph_gets_a_ref_that_stays(
    workspace: Workspace, site: Site, arrival: str
) -> None:
    word = ref_of(arrival, 'clickable "Wordlink"')
    assert word.startswith("@c")
    again = workspace.ok("snapshot", "-i")
    assert ref_of(again, 'clickable "Wordlink"') == word  # the same number, snapshot after snapshot
    assert "note opened" in workspace.ok("click", word)


def test_shapes_and_swatches_are_told_apart_by_their_colour(workspace: Workspace, arrival: str) -> None:
    assert ref_of(arrival, 'circle "yellow circle"')
    red = ref_of(arrival, 'circle "red circle"')
    assert ref_of(arrival, 'rectangle "blue rectangle"')
    assert ref_of(arrival, 'clickable "green swatch"')
    assert "shape #e00" in workspace.ok("click", red)


def test_icon_buttons_are_named_by_their_class(workspace: Workspace, arrival: str) -> None:
    italic = ref_of(arrival, 'button "italic"')
    assert ref_of(arrival, 'button "bold"')
    assert "format ql-italic" in workspace.ok("click", italic)


def test_an_editable_area_is_a_text_box_with_its_text_as_value(workspace: Workspace, arrival: str) -> None:
    assert re.search(r'- textbox "Write a note" @c\d+: "Hello world"', arrival)
    editor = ref_of(arrival, 'textbox "Write a note"')
    out = workspace.ok("fill", editor, "Dear Ann")
    assert '"Dear Ann"' in out
    assert js(workspace, "document.querySelector('.editor').innerText.trim()") == "Dear Ann"


def test_every_item_of_a_roving_file_list_is_reachable(workspace: Workspace, arrival: str) -> None:
    answer = ref_of(arrival, 'listitem "answer.ipynb"')
    assert "opened answer.ipynb" in workspace.ok("click", answer)


def test_a_slider_handle_is_listed_and_no_hint_borrows_the_instruction(
    workspace: Workspace, arrival: str
) -> None:
    line = next(line for line in arrival.splitlines() if "slider handle" in line)
    assert re.search(r"@c\d+", line)
    assert "Drag Krissie" not in line


def test_a_focusable_code_block_is_no_control(arrival: str) -> None:
    assert '- "code that scrolls"' in arrival  # a line of the page's text, with no ref


def test_a_small_page_arrives_whole_with_its_instructions(arrival: str) -> None:
    assert '- "Drag Krissie to the top of the list, then pick the 12th of the month before."' in arrival
    assert arrival.count("Hello world") == 1  # the editable area's text is its value, not a line again


def test_find_gives_the_words_of_a_paragraph_a_ref_of_their_own(workspace: Workspace, arrival: str) -> None:
    found = workspace.ok("find", "lazy dog")
    assert re.search(
        r'@e\d+ \(paragraph under heading @e\d+ "Old-school widgets"\): "The quick brown', found
    ), found
    word = workspace.ok("find", "Wordlink")
    assert word.count("@c") == 1 and ref_of(arrival, 'clickable "Wordlink"') in word


def test_find_inside_a_frame_points_at_the_frame_s_own_elements(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reach/framed.html"))
    found = workspace.ok("find", "12 percent")
    assert re.search(r'@e\d+ \(code under heading @e\d+ "Quarterly numbers"\)', found), found
    ref = re.search(r"@e\d+", found)
    assert ref and "iframe" not in found
    assert "12 percent" in workspace.ok("text", ref.group(0))


def test_an_ambiguous_text_selector_lists_its_matches_with_refs(workspace: Workspace, site: Site) -> None:
    view = workspace.ok("goto", site.url("/reach/oldschool.html"))
    result = workspace.run("click", "text=Krissie")
    assert result.code == 1
    assert "matches 2 elements" in result.err
    assert ref_of(view, 'listitem "Krissie"') + ' listitem "Krissie"' in result.err
    assert re.search(r'@e\d+ paragraph "Drag Krissie', result.err), result.err


def test_rows_a_grid_moved_on_screen_are_read_in_the_order_they_stand(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reach/grid.html"))
    view = workspace.ok("snapshot", "-i")
    order = re.findall(r'"(gbm-[a-z-]+)"', view)
    assert order == ["gbm-deep-slow", "gbm-small-lr", "gbm-early-stop"], view
    found = re.findall(r'"(gbm-[a-z-]+)"', workspace.ok("find", "gbm"))
    assert found == order


FLOOD = """<!doctype html><title>Flood</title><h1>Many listeners</h1><div id=box></div>
<script>
const box = document.getElementById('box');
for (let i = 0; i < 50000; i++) {
  const s = document.createElement('span');
  s.textContent = 'cell ' + i + ' ';
  s.addEventListener('click', () => {});
  box.appendChild(s);
}
let rounds = 0;
const more = setInterval(() => {  // listeners keep coming while the page is read, for a while
  if (++rounds > 100) clearInterval(more);
  for (let i = 0; i < 200; i++) {
    const d = document.createElement('i');
    d.textContent = 'late ';
    d.addEventListener('mousedown', () => {});
    box.appendChild(d);
  }
}, 50);
</script>"""


def test_a_page_of_fifty_thousand_listeners_is_read_within_bounds(workspace: Workspace, site: Site) -> None:
    arrived = workspace.run("goto", site.page("/reach/flood.html", FLOOD), timeout=120)
    assert arrived.code == 0, arrived.err
    view = workspace.run("snapshot", "-i", timeout=120)
    assert view.code == 0, view.err
    assert len(view.out) < 20_000  # the budget holds, however many controls the scan finds
    wide = workspace.run("click", "text=cell", timeout=120)
    assert wide.code == 1 and "matches" in wide.err and wide.err.count("\n") < 20, wide.err
    assert workspace.ok("url").strip().endswith("/reach/flood.html")  # the daemon lives


def test_a_canvas_says_its_size_and_what_reaches_inside(arrival: str) -> None:
    assert re.search(
        r'- canvas "Sales chart, 120×60" @[ec]\d+ \(only `browse mouse` and screenshots reach inside\)',
        arrival,
    )


def test_a_month_bar_s_arrows_are_named_by_their_class_and_the_hidden_ones_still_reached(
    workspace: Workspace, site: Site
) -> None:
    # one listener on the bar: its source names the year's arrows by class (shown only on hover), and
    # Prev and Next are the bar's other repeated children; the library's prefix names no arrow
    view = workspace.ok("goto", site.url("/reach/monthbar.html"))
    after = workspace.ok("click", ref_of(view, 'generic "prev month"'))
    assert "February" in after
    workspace.ok("click", ref_of(view, 'generic "next month"'))
    assert js(workspace, "document.getElementById('month').textContent") == "March"
    up = ref_of(workspace.ok("snapshot", "-i"), 'generic "arrow up"')
    workspace.ok("hover", up)
    workspace.ok("click", up)
    assert js(workspace, "document.getElementById('year').value") == "2027"


def test_an_editor_with_no_label_is_named_by_its_class_not_by_the_words_near_it(
    workspace: Workspace, site: Site
) -> None:
    view = workspace.ok("goto", site.url("/reach/quilllike.html"))
    line = next(line for line in view.splitlines() if "textbox" in line)
    assert re.match(r"- textbox \"editor\" @[ec]\d+", line.strip()), view  # not "editor blank": its state
    assert "near" not in line
    assert '"Hello"' in workspace.ok("type", ref_of(view, 'textbox "editor"'), "Hello")
    cell = [line for line in view.splitlines() if "textbox" in line][1]
    assert re.match(r"- textbox @[ec]\d+ \(near ", cell.strip()), view  # not "content": how it is built


def test_a_handle_without_aria_says_where_it_stands_and_fill_moves_it_there(
    workspace: Workspace, site: Site
) -> None:
    view = workspace.ok("goto", site.url("/reach/handle.html"))
    line = next(line for line in view.splitlines() if "slider handle" in line)
    assert line.rstrip().endswith(': "20%"'), view  # its place on the track, the only value it has
    assert "Task" not in line  # the page's instruction, a short paragraph, is no label
    assert "clickable" not in view  # the track: its handle sets it
    handle = ref_of(view, "slider handle")
    out = workspace.ok("fill", handle, "70")
    assert '"70"' in out or "70%" in out, out
    assert js(workspace, "document.getElementById('vol').textContent") == "70"
    wrong = workspace.run("fill", handle, "150")
    assert wrong.code == 1
    assert "0 to 100" in wrong.err and "browse fill" in wrong.err


def test_a_calendars_weeks_are_its_days_links_not_text_that_appeared(
    workspace: Workspace, site: Site
) -> None:
    view = workspace.ok("goto", site.url("/reach/calendar_table.html"))
    out = workspace.ok("click", ref_of(view, 'textbox "Due"'))
    assert re.search(r'link "15" @e\d+', out), out  # the days are listed as controls
    assert "1 · 2 · 3" not in out and "15 · 16" not in out  # and not again as rows of text


def test_a_drag_in_a_sortable_list_reports_the_new_order(workspace: Workspace, site: Site) -> None:
    view = workspace.ok("goto", site.url("/input/sortable.html"))
    gamma, alpha = ref_of(view, 'button "Gamma"'), ref_of(view, 'button "Alpha"')
    out = workspace.ok("drag", gamma, alpha)
    assert re.search(rf'~ in a new order: button "Gamma" {gamma}, "Alpha" {alpha}', out), out
    assert f'-- button "Gamma" {gamma}' not in out  # not gone and come again
