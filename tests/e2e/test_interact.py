"""Interaction commands end to end: each one's effect checked in the page, and the failures an agent meets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_snapshot import ref, snap

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def js(workspace: Workspace, expression: str) -> str:
    return strip_fence(workspace.ok("js", expression)).strip()


def open_form(workspace: Workspace, site: Site) -> str:
    workspace.ok("goto", site.url("/snap/form.html"))
    return snap(workspace, "-i")


def test_click_acts_and_says_only_what_changed(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    placed = ref(out, "button", "Place order")
    printed = workspace.ok("click", placed)
    # no navigation, no change in the controls: the first line, and the text the click wrote
    assert printed.splitlines()[0] == f"Clicked {placed}"
    assert strip_fence(printed[printed.index("<<<") :]) == 'text appeared: "clicked 1"', printed
    assert js(workspace, "document.getElementById('out').textContent") == "clicked 1"
    workspace.ok("click", "#go")
    assert js(workspace, "document.getElementById('out').textContent") == "clicked 2"


def test_click_waits_for_the_navigation_it_causes(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    printed = workspace.ok("click", ref(out, "link", "Next page"))
    assert printed.splitlines()[1] == f"navigated to {site.url('/snap/form-next.html')}"
    assert strip_fence(workspace.ok("text", "h1")) == "Second page"


def test_fill_replaces_the_value_and_type_adds_to_the_focused_field(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    name = ref(out, "textbox", "Name")
    workspace.ok("fill", name, "Ann")
    workspace.ok("fill", name, "Bea")
    assert js(workspace, "document.getElementById('who').value") == "Bea"
    workspace.ok("click", ref(out, "textbox", "Notes"))
    workspace.ok("type", "two words")
    assert js(workspace, "document.getElementById('notes').value") == "two words"


def test_fill_and_type_read_the_text_from_stdin_when_it_is_a_dash(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    name = ref(out, "textbox", "Name")
    workspace.ok("fill", name, "-", input="pw from stdin\n")
    assert js(workspace, "document.getElementById('who').value") == "pw from stdin"
    workspace.ok("fill", "#notes", "")
    workspace.ok("type", "#notes", "-", input="typed secret")
    workspace.ok("type", "-", input=", more\n")
    assert js(workspace, "document.getElementById('notes').value") == "typed secret, more"
    assert "`-` reads it from stdin" in workspace.ok("help", "fill")


MOVING = """<title>moving</title><input type=checkbox id=m style="position:relative;animation:mv .2s
linear infinite alternate"><style>@keyframes mv { from { left: 0 } to { left: 200px } }</style>"""


def test_an_invalid_selector_and_an_element_that_keeps_moving_say_what_to_do(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/interact/moving", MOVING))
    invalid = workspace.run("click", ":nth-child(x)")
    assert invalid.code == 2 and "not valid CSS" in invalid.err and "hint: check its syntax" in invalid.err
    moving = workspace.run("check", "#m", "--timeout", "1500")
    assert moving.code == 4 and "kept moving" in moving.err and "browse wait" in moving.err, moving.err


def test_type_without_a_focused_element_says_to_click_first(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    workspace.ok("js", "document.activeElement.blur()")
    result = workspace.run("type", "hello")
    assert result.code == 1 and "no element has focus" in result.err and "click" in result.err


def test_press_sends_keys_and_follows_a_submit(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    workspace.ok("press", "x")
    workspace.ok("press", "Shift+A")
    assert js(workspace, "document.getElementById('keys').textContent").split()[-3:] == ["x", "Shift", "A"]
    workspace.ok("goto", site.url("/snap/form-next.html"))
    workspace.ok("fill", "input[name=q]", "boats")
    workspace.ok("click", "input[name=q]")
    printed = workspace.ok("press", "Enter")
    assert "navigated to" in printed and workspace.ok("url").strip().endswith("form-next.html?q=boats")


def test_an_unknown_key_is_a_usage_error(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    result = workspace.run("press", "Foo")
    assert result.code == 2 and "not a key name" in result.err and "Enter" in result.err


def test_select_by_value_by_label_and_several_at_once(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    workspace.ok("select", ref(out, "combobox", "Size"), "l")
    assert js(workspace, "document.getElementById('size').value") == "l"
    workspace.ok("select", "#size", "Small")
    assert js(workspace, "document.getElementById('size').value") == "s"
    workspace.ok("select", "#toppings", "Ham", "basil")
    chosen = js(
        workspace, "[...document.getElementById('toppings').selectedOptions].map(o => o.value).join()"
    )
    assert chosen == "ham,basil"


def test_select_of_a_missing_option_lists_the_options(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    result = workspace.run("select", "#size", "Huge")
    assert result.code == 1 and "no option 'Huge'" in result.err
    assert "Small, Medium, Large" in result.err


def test_check_and_uncheck_change_boxes_and_radios(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    workspace.ok("check", ref(out, "checkbox", "Gift wrap"))
    workspace.ok("uncheck", ref(out, "checkbox", "Newsletter"))
    workspace.ok("check", ref(out, "radio", "Cash"))
    state = js(
        workspace, "['gift','news','cash','card'].map(id => document.getElementById(id).checked).join()"
    )
    assert state == "true,false,true,false"


def test_hover_moves_the_mouse_over_the_element(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    workspace.ok("hover", ref(out, "button", "Hover me"))
    assert js(workspace, "document.getElementById('hovered').textContent") == "hovered"


def test_scroll_brings_an_element_into_view_or_goes_to_the_bottom(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    workspace.ok("scroll", ref(out, "button", "Bottom button"))
    in_view = "document.getElementById('bottom').getBoundingClientRect().top < innerHeight"
    assert js(workspace, in_view) == "true"
    workspace.ok("js", "scrollTo(0, 0)")
    printed = workspace.ok("scroll")
    assert "Scrolled to the bottom" in printed
    assert js(workspace, "scrollY + innerHeight >= document.scrollingElement.scrollHeight - 1") == "true"


def test_wait_for_an_element_a_load_state_or_a_time(workspace: Workspace, site: Site) -> None:
    out = open_form(workspace, site)
    workspace.ok("click", ref(out, "button", "Start slow job"))
    assert re.fullmatch(r"#late is visible after \d+ ms", workspace.ok("wait", "#late").strip())
    assert js(workspace, "document.getElementById('late').textContent") == "arrived"
    assert "Page reached load" in workspace.ok("wait", "--load")
    assert "Page reached networkidle" in workspace.ok("wait", "--networkidle")
    assert workspace.ok("wait", "20").strip() == "Waited 20 ms"
    both = workspace.run("wait", "#late", "--load")
    assert both.code == 2


def test_wait_for_an_element_that_never_comes_times_out(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    result = workspace.run("--timeout", "300", "wait", "#never")
    assert result.code == 4 and "#never" in result.err


def test_viewport_resizes_and_scales(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    assert workspace.ok("viewport", "800x600").strip() == "Viewport 800x600 (scale 1)"
    assert js(workspace, "innerWidth + 'x' + innerHeight") == "800x600"
    workspace.ok("viewport", "640x480", "--scale", "2")
    assert js(workspace, "innerWidth + ' ' + devicePixelRatio") == "640 2"
    workspace.ok("viewport", "1280x720", "--scale", "1")
    bad = workspace.run("viewport", "big")
    assert bad.code == 2 and "WIDTHxHEIGHT" in bad.err


def test_upload_sets_files_on_a_file_input(workspace: Workspace, site: Site, tmp_path: Path) -> None:
    out = open_form(workspace, site)
    (tmp_path / "a.txt").write_text("alpha")
    (tmp_path / "b.txt").write_text("beta")
    field = ref(out, "button", "Attachment")
    workspace.ok("upload", field, str(tmp_path / "a.txt"), str(tmp_path / "b.txt"))
    names = js(workspace, "[...document.getElementById('file').files].map(f => f.name + ':' + f.size).join()")
    assert names == "a.txt:5,b.txt:4"
    missing = workspace.run("upload", field, str(tmp_path / "none.txt"))
    assert missing.code == 2 and "none.txt" in missing.err


def test_a_covered_click_fails_at_once_naming_the_cover(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/cookie.html"))
    out = snap(workspace, "-i")
    result = workspace.run("click", ref(out, "button", "Buy now"))
    assert result.code == 1
    assert "covered by another element: div#cookie-banner.consent" in result.err
    assert "overlay" in result.err
    workspace.ok("click", ref(out, "button", "Accept all"))
    workspace.ok("click", ref(out, "button", "Buy now"))
    assert js(workspace, "document.getElementById('r').textContent") == "bought"


def test_a_click_behind_a_modal_names_the_modal(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/modal.html"))
    out = snap(workspace, "-i")
    result = workspace.run("click", ref(out, "button", "Under the modal"))
    assert result.code == 1 and "div#backdrop" in result.err


# Locust's form in a modal that scrolls: Start's middle lies below the modal's fold, over the backdrop,
# though inside the window.
CLIPPED = """<!doctype html><title>Clipped</title>
<div style="position:fixed;inset:0;background:rgba(0,0,0,.5)" id="backdrop"></div>
<div style="position:fixed;top:40px;left:100px;width:400px;height:600px;overflow:auto;background:#fff">
<div style="height:590px">Start new load test</div>
<button style="height:40px" onclick="document.getElementById('r').textContent = 'started'">Start</button>
<p id="r"></p></div>"""


def test_a_control_below_the_fold_of_a_box_that_scrolls_is_scrolled_to_not_covered(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/snap/clipped.html", CLIPPED))
    workspace.ok("click", ref(snap(workspace, "-i"), "button", "Start"))
    assert js(workspace, "document.getElementById('r').textContent") == "started"


def test_force_skips_the_checks_and_clicks_whatever_is_on_top(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/cookie.html"))
    workspace.ok("click", "--force", "#buy")
    assert js(workspace, "document.getElementById('r').textContent") == ""
    assert js(workspace, "!!document.getElementById('cookie-banner')") == "true"


def test_a_selector_matching_many_elements_is_refused_before_acting(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    result = workspace.run("click", "button")
    assert result.code == 1 and "matches" in result.err and "exactly one" in result.err
    assert js(workspace, "document.getElementById('out').textContent") == "not clicked"


def test_wrong_kinds_of_element_get_messages_an_agent_can_act_on(workspace: Workspace, site: Site) -> None:
    open_form(workspace, site)
    fill = workspace.run("fill", "#out", "x")
    assert fill.code == 1 and "not a text field" in fill.err
    check = workspace.run("check", "#out")
    assert check.code == 1 and "not a checkbox or radio button" in check.err
    disabled = workspace.run("--timeout", "400", "click", "#off")
    assert disabled.code == 4 and "stayed disabled" in disabled.err


def test_goto_works_right_after_a_failed_navigation(workspace: Workspace, site: Site) -> None:
    failed = workspace.run("goto", "http://127.0.0.1:9/")
    assert failed.code == 1
    assert "Navigated to" in workspace.ok("goto", site.url("/snap/form.html"))


# React Aria's checkbox (Streamlit's, among others): the input is visually hidden inside its label,
# and a click at the input's centre reaches the label, or what the label draws there.
_HIDDEN_INPUT = (
    "<label style='display:flex;gap:8px;cursor:pointer;padding:4px'>"
    "<span style='position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;"
    "clip-path:inset(50%);white-space:nowrap'><input type=checkbox id=express></span>"
    "<span style='width:16px;height:16px;border:1px solid'></span>Express delivery</label>",
    "<label style='display:block;position:relative;padding:10px 10px 10px 40px;cursor:pointer'>"
    "<span style='position:absolute;left:12px;top:12px;width:13px;height:13px;overflow:hidden;"
    "clip-path:inset(50%)'><input type=checkbox id=express style='margin:0'></span>Express delivery</label>",
)


@pytest.mark.parametrize("layout", _HIDDEN_INPUT, ids=["under-a-drawn-box", "under-the-label"])
def test_check_and_uncheck_a_box_hidden_inside_its_label_toggle_it_at_once(
    workspace: Workspace, site: Site, layout: str
) -> None:
    workspace.ok("goto", site.page("/interact/hidden-box", f"<title>Box</title>{layout}"))
    box = ref(snap(workspace, "-i"), "checkbox", "Express delivery")
    for action in ("check", "uncheck", "check"):
        result = workspace.run(action, box, "--timeout", "2000")
        assert result.code == 0, result.err
        assert ("[checked]" in snap(workspace, "-i")) is (action == "check")


# How component libraries draw an upload: a drop zone holding a hidden input, and a button that
# opens a hidden input elsewhere in the page; and a button that opens nothing.
DROPZONES = """<!doctype html><title>Uploads</title>
<div id="zone" role="button" tabindex="0">Drop files here<input type="file" id="inner" hidden></div>
<button id="pick" onclick="document.getElementById('far').click()">Choose a file</button>
<input type="file" id="far" style="display:none">
<button>Does nothing</button>
<p id="got"></p>
<script>
for (const id of ['inner', 'far']) document.getElementById(id).onchange = (e) =>
  document.getElementById('got').textContent = id + ': ' + [...e.target.files].map(f => f.name).join();
</script>"""


def test_upload_goes_through_a_drop_zone_or_the_button_that_opens_a_file_chooser(
    workspace: Workspace, site: Site, tmp_path: Path
) -> None:
    workspace.ok("goto", site.page("/forms/dropzones.html", DROPZONES))
    out = snap(workspace, "-i")
    (tmp_path / "notes.txt").write_text("notes")
    zone = ref(out, "button", "Drop files here")
    assert 'text appeared: "inner: notes.txt"' in workspace.ok("upload", zone, str(tmp_path / "notes.txt"))
    picked = workspace.ok("upload", ref(out, "button", "Choose a file"), str(tmp_path / "notes.txt"))
    assert 'text appeared: "far: notes.txt"' in picked, picked
    nothing = workspace.run("upload", ref(out, "button", "Does nothing"), str(tmp_path / "notes.txt"))
    assert nothing.code == 1 and "opened no file chooser" in nothing.err, nothing
