"""Input beyond clicks on real Chromium: drag (HTML5 and pointer), held keys, the raw mouse, the clipboard."""

from __future__ import annotations

import json
import re

import pytest
from tests.conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def js(workspace: Workspace, expr: str) -> object:
    out = workspace.ok("--json", "--raw", "js", expr)
    return json.loads(out)["data"]["value"]


def test_drag_moves_a_card_by_html5_drag_and_drop(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/dnd.html"))
    out = workspace.ok("drag", "#card", "#done")
    assert "Dragged #card onto #done" in out
    assert "Moved Write report to Done" in out  # the page's status, in the report
    assert js(workspace, "document.getElementById('card').parentElement.id") == "done"


def test_drag_reorders_a_pointer_driven_sortable_list(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/sortable.html"))
    workspace.ok("drag", "li:nth-child(1)", "li:nth-child(3)")
    order = js(workspace, "Array.from(document.querySelectorAll('li')).map(li => li.textContent)")
    assert order == ["Beta", "Gamma", "Alpha"]


def test_drag_moves_through_a_sortable_that_reads_the_pointer_once_a_frame(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/input/gestures.html"))
    out = workspace.ok("drag", "#list li:nth-child(5)", "#list li:nth-child(1)")
    assert "Order: Krissie, Alice, Bob, Carol, Dave" in out


def test_drag_by_an_offset_moves_a_slider_handle_and_a_resize_corner(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/input/gestures.html"))
    out = workspace.ok("drag", "#handle", "+100,+0")
    assert "Dragged #handle by +100,+0" in out and "Volume: 70" in out
    out = workspace.ok("drag", "#handle", "-50,+0")  # to the left: an argument, not a flag
    assert "Dragged #handle by -50,+0" in out and "Volume: 45" in out
    out = workspace.ok("drag", "#corner", "+40,-20")
    assert "Size: 140x40" in out  # 100x60, 40 wider and 20 lower


def test_drag_to_a_point_and_one_outside_the_viewport(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/gestures.html"))
    out = workspace.ok("drag", "#handle", "450,44")  # the track runs from x 300 to 500
    assert "Dragged #handle to 450,44" in out and "Volume: 75" in out
    result = workspace.run("drag", "#handle", "+5000,+0")
    assert result.code == 1 and "outside the viewport" in result.err


def test_drag_of_a_missing_element_fails_on_the_page(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/dnd.html"))
    result = workspace.run("drag", "#nothing", "#done")
    assert result.code == 1 and "#nothing" in result.err


def test_keydown_holds_a_key_until_keyup(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/keys.html"))
    workspace.ok("keydown", "Shift")
    workspace.ok("press", "A")
    workspace.ok("keyup", "Shift")
    events = js(workspace, "events")
    assert events == ["keydown Shift shift", "keydown A shift", "keyup A", "keyup Shift"]
    again = workspace.run("keyup", "Shift")  # released already: a cleanup step, not a failure
    assert again.code == 0 and again.out.strip().startswith("Shift was not held down: nothing to release"), (
        again
    )
    assert js(workspace, "events") == events  # the page got no keyup of a key no one held


def test_mouse_moves_presses_releases_and_turns_the_wheel(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/keys.html"))
    box = js(workspace, "(r => [r.x, r.y])(document.getElementById('pad').getBoundingClientRect())")
    assert isinstance(box, list)
    x, y = int(box[0]) + 50, int(box[1]) + 40
    workspace.ok("mouse", "move", str(x), str(y))
    assert js(workspace, "lastMove") == [x, y]
    workspace.ok("mouse", "down", "right")
    workspace.ok("mouse", "up", "right")
    assert js(workspace, "events") == [f"mousedown 2 at {x},{y}", "mouseup 2"]
    workspace.ok("mouse", "wheel", "0", "400")
    assert js(workspace, "wheeled") == 400


def test_mouse_and_key_usage_errors_exit_2_before_any_daemon(fresh_workspace: Workspace) -> None:
    for argv in (
        ["mouse", "move", "10"],
        ["mouse", "jump"],
        ["mouse", "down", "top"],
        ["drag", "#a"],
        ["keydown", "Control+A"],
    ):
        result = fresh_workspace.run(*argv)
        assert result.code == 2, (argv, result.err)
    assert not (fresh_workspace.state_dir / "daemon.json").exists()


def test_keydown_of_a_chord_says_to_hold_each_key(fresh_workspace: Workspace) -> None:
    result = fresh_workspace.run("keydown", "Control+A")
    assert result.code == 2 and "one key" in result.err and "press Shift+A" in result.err


def test_clipboard_round_trip_and_paste_into_the_page(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/keys.html"))
    assert "Wrote 11 characters" in workspace.ok("clipboard", "write", "hello there")
    assert "hello there" in workspace.ok("clipboard", "read")
    js(workspace, "navigator.clipboard.writeText('from the page')")
    assert "from the page" in workspace.ok("clipboard", "read")
    workspace.ok("click", "textarea")
    workspace.ok("press", "Control+V")
    assert js(workspace, "document.querySelector('textarea').value") == "from the page"


def test_clipboard_on_a_blank_tab_says_to_open_a_page(workspace: Workspace) -> None:
    workspace.ok("goto", "about:blank")
    result = workspace.run("clipboard", "read")
    assert result.code == 1 and "http(s) page" in result.err


# Node-RED's palette: items a mouse drags onto the flow (a move cursor, no role), and ones that HTML5 drags.
PALETTE = """<!doctype html><title>Palette</title>
<style>.item { cursor: move; width: 120px; padding: 6px; margin: 4px; background: #eef }</style>
<div id="palette"><div class="item">inject</div>
<div class="item" draggable="true">debug</div><div class="item" draggable="true">function</div></div>
<div role="region" aria-label="Flow" id="flow" style="width: 400px; height: 200px; border: 1px solid">
</div><p id="log" role="status"></p>
<script>
const flow = document.getElementById('flow');
document.addEventListener('dragstart', e => e.dataTransfer.setData('text', e.target.textContent));
flow.addEventListener('dragover', e => e.preventDefault());
flow.addEventListener('drop', e => {
  e.preventDefault();
  document.getElementById('log').textContent = 'added ' + e.dataTransfer.getData('text');
});
</script>"""


def test_items_made_to_be_dragged_get_refs_that_say_so_drag_and_last(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/input/palette.html", PALETTE))
    out = workspace.ok("snapshot", "-C")  # the whole page: the empty drop zone too
    dragged = {
        found.group(1): found.group(2)
        for line in out.splitlines()
        if (found := re.search(r'generic "(\w+)" (@e\d+) \[draggable\]$', line))
    }
    assert set(dragged) == {"inject", "debug", "function"}, out
    flow = re.search(r'region "Flow" (@e\d+)', out)
    assert flow is not None, out
    assert "added debug" in workspace.ok("drag", dragged["debug"], flow.group(1))
    # the refs -C gave outlast the drag's report, which reads the page without -C
    assert "added function" in workspace.ok("drag", dragged["function"], flow.group(1))
    assert f'generic "inject" {dragged["inject"]} [draggable]' in workspace.ok("snapshot", "-i")
