"""Reports that said too much or too little: a toast said three times, a tour that opened after the
arrival's report, a drag that changed nothing visible said nothing, a long `type` that ran out of time."""

from __future__ import annotations

import json
import re

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_a_clickable_toast_whose_text_is_a_line_too_is_said_once(workspace: Workspace, site: Site) -> None:
    view = workspace.ok("goto", site.url("/reports5/toast.html"))
    deploy = re.search(r'button "Deploy" (@e\d+)', view)
    assert deploy, view
    report = workspace.ok("click", deploy.group(1))
    assert report.count("Successfully deployed") == 1, report
    toast = re.search(r'message: "Successfully deployed" (@[ec]\d+)', report)
    assert toast, report  # the message, with the ref that clicks it away
    workspace.ok("click", toast.group(1))
    assert "Successfully deployed" not in strip_fence(workspace.ok("text"))  # the ref was the toast's


def test_a_tour_that_opens_after_the_arrival_is_named_by_the_next_action(
    workspace: Workspace, site: Site
) -> None:
    view = workspace.ok("goto", site.url("/reports5/late-tour.html"))
    assert "Welcome" not in view  # it opens a second after the load: in no report yet
    deploy = re.search(r'button "Deploy" (@e\d+)', view)
    field = re.search(r'textbox "Flow name" (@e\d+)', view)
    assert deploy and field, view
    for _ in range(100):  # the next action comes once the tour is up, as an agent's would
        if "Welcome" in workspace.ok("text"):
            break
    refused = workspace.run("click", deploy.group(1))
    assert refused.code == 1, refused
    said = re.search(
        r'covered by another element: div.shade, of the modal dialog "Welcome to the editor" @e\d+\n'
        r'hint: close that overlay first: `browse click (@e\d+)` \("Close"\);'
        r' its other controls: "Start" @e\d+',
        refused.err,
    )
    assert said, refused.err  # which overlay, its ref, and the one call that closes it
    # an action that reaches behind it (a field's fill) says what came over the page since the last report
    filled = workspace.ok("fill", field.group(1), "Flow 2")
    assert 'over the page since the last report:\n⚠ blocking modal dialog "Welcome to the editor"' in filled
    assert re.search(r'button "Close" @e\d+', filled), filled
    assert "since the last report" not in workspace.ok("fill", field.group(1), "Flow 3")  # said once
    closed = workspace.ok("click", said.group(1))
    assert '-⚠ blocking modal dialog "Welcome to the editor"' in closed, closed
    assert "Deployed" in workspace.ok("click", deploy.group(1))


def test_a_drag_the_page_did_not_take_says_nothing_visible_changed(workspace: Workspace, site: Site) -> None:
    view = workspace.ok("goto", site.url("/reports5/sortable-nothing.html"))
    items = re.findall(r'listitem "(\w+)" (@e\d+)', view)
    assert [name for name, _ in items] == ["Alpha", "Beta", "Gamma"], view
    dragged = workspace.ok("drag", items[0][1], items[2][1])
    assert dragged.splitlines() == [
        f"Dragged {items[0][1]} onto {items[2][1]}",
        "nothing changed in the page's controls or text",
    ], dragged


def test_a_long_type_stops_at_its_time_saying_how_far_it_got(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/reports5/field", "<!doctype html><title>Note</title><textarea id=box>"))
    stopped = workspace.run("type", "--timeout", "1000", "#box", "-", input="a" * 20_000)
    assert stopped.code == 4, stopped
    said = re.search(r"type stopped after ([\d,]+) of 20,000 characters", stopped.err)
    assert said and "`browse fill SEL TEXT`" in stopped.err, stopped.err
    held = workspace.ok("--json", "--raw", "js", "document.getElementById('box').value.length")
    assert json.loads(held)["data"]["value"] == int(said.group(1).replace(",", ""))  # as said, no more


def test_a_click_while_keydown_holds_a_modifier_says_so(workspace: Workspace, site: Site) -> None:
    page = site.page(
        "/reports5/modified",
        '<!doctype html><title>Pick</title><button onclick="this.textContent ='
        " event.ctrlKey ? 'picked with control' : 'picked'\">Pick</button>",
    )
    view = workspace.ok("goto", page)
    pick = re.search(r'button "Pick" (@e\d+)', view)
    assert pick, view
    clicked = _click_holding_control(workspace, pick.group(1))
    first = f"Clicked {pick.group(1)} with Control held down (`browse keyup Control` releases it)"
    assert clicked.splitlines()[0] == first and "picked with control" in clicked, clicked
    assert (
        workspace.ok("click", "text=picked with control").splitlines()[0]
        == "Clicked text=picked with control"
    )


def test_a_server_message_on_the_page_a_form_lands_on_is_said_once(workspace: Workspace, site: Site) -> None:
    view = workspace.ok("goto", site.url("/reports6/roundup-login.html"))
    login = re.search(r'button "Login" (@e\d+)', view)
    assert login, view
    workspace.ok("fill", 'input[name="__login_name"]', "admin")
    landed = workspace.ok("click", login.group(1))
    assert "List of issues" in landed, landed
    assert landed.count("Welcome admin!") == 1, landed
    assert 'message: "Welcome admin!"' in landed  # on top, as news
    assert re.search(r'link "clear this message" @e\d+', landed), landed  # the message's control stays


def test_a_stale_ref_of_an_unnamed_select_is_described_as_the_view_showed_it(
    workspace: Workspace, site: Site
) -> None:
    view = workspace.ok("goto", site.url("/reports6/roundup-issue.html"))
    status = re.search(r'combobox (@e\d+) \(near "Status"\)', view)
    assert status, view
    workspace.ok("js", "document.querySelector('select[name=status]').remove()")
    workspace.ok("snapshot", "-i")
    gone = workspace.run("select", status.group(1), "unread")
    assert gone.code == 1, gone
    assert f'{status.group(1)} (combobox (near "Status")) changed' in gone.err, gone.err
    assert "deferred" not in gone.err  # not by its options' words


def test_a_control_click_says_the_tab_it_opened_in_the_background_and_stays(
    workspace: Workspace, site: Site
) -> None:
    view = workspace.ok("goto", site.url("/reports6/links.html"))
    link = re.search(r'link "The login page is slow" (@e\d+)', view)
    assert link, view
    clicked = _click_holding_control(workspace, link.group(1))
    try:
        said = re.search(
            r"opened tab (\d+) in the background: (\S+roundup-issue\.html) \(`browse tab \1`", clicked
        )
        assert said, clicked
        tabs = strip_fence(workspace.ok("tabs"))
        assert re.search(r"^\* 1 .*links\.html$", tabs, re.M), tabs  # still on the tab clicked in
        assert re.search(rf"^  {said.group(1)} .*roundup-issue\.html$", tabs, re.M), tabs
    finally:
        workspace.run("closetab", "2")


def test_a_fill_whose_page_says_saving_in_words_reports_once_it_is_saved(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports6/autosave.html"))
    filled = workspace.ok("fill", "#title", "Welcome home")
    assert 'text appeared: "Saved"' in filled, filled  # the autosave's end, not its "Saving…"
    assert "Saving" not in filled


def _click_holding_control(workspace: Workspace, target: str) -> str:
    """`click TARGET` while `keydown` holds Control, released whatever the click did."""
    workspace.ok("keydown", "Control")
    try:
        return workspace.ok("click", target)
    finally:
        workspace.ok("keyup", "Control")
