"""Actions report their effects, after the page settles: end to end through `browse`, on local fixtures."""

from __future__ import annotations

import json
import re
import time

import pytest
from test_snapshot import ref, snap

from conftest import FixtureHandler, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def effects(printed: str) -> str:
    """The lines after an action's first line, with the fence markers taken out."""
    lines = printed.strip().splitlines()[1:]
    return "\n".join(line for line in lines if not line.startswith("<<<"))


def fenced_part(printed: str) -> str:
    start = printed.index("<<<untrusted page content from ")
    return strip_fence(printed[start : printed.index(">>>", printed.index("<<<end untrusted")) + 3])


def slow_json(body: dict[str, object], delay_s: float) -> object:
    def route(handler: FixtureHandler) -> None:
        time.sleep(delay_s)
        handler.reply(json.dumps(body), headers={"Content-Type": "application/json"})

    return route


def test_a_slotted_button_of_a_web_component_reports_the_dialog_it_opened_and_closed(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/effects/lit.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Open details"))
    assert printed.splitlines()[0] == f"Clicked {ref(out, 'button', 'Open details')}"
    quoted = fenced_part(printed)
    # the dialog is said once: as the blocking overlay that appeared, not also as a message
    assert '+⚠ blocking modal dialog "Details": deal with it first' in quoted
    assert "dialog opened" not in quoted
    assert re.search(r'^\+.*button "Close details" @e\d+', quoted, re.M), printed
    inside = snap(workspace, "-i")
    printed = workspace.ok("--json", "click", ref(inside, "button", "Close details"))
    result = json.loads(printed)
    said = result["output"]
    assert said.count('"Details"') == 1 and '-⚠ blocking modal dialog "Details"' in said
    assert {"event": "closed", "kind": "dialog", "label": "Details", "text": ""} in result["data"]["messages"]


def test_deleting_one_of_a_tables_repeated_buttons_reports_the_status_and_a_small_diff(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/effects/table.html"))
    out = snap(workspace, "-i")
    deletes = re.findall(r'button "Delete" (@e\d+)', out)
    assert len(deletes) == 3, out
    printed = workspace.ok("click", deletes[1])
    quoted = fenced_part(printed)
    assert 'status: "Deleted Bob"' in quoted
    changed = [line for line in quoted.splitlines() if line[:1] in "+-"]
    assert 0 < len(changed) <= 12 and any(deletes[1] in line for line in changed if line.startswith("-"))
    assert not any(deletes[0] in line or deletes[2] in line for line in changed), quoted
    assert "Bob" not in strip_fence(workspace.ok("text", "table"))


def test_a_blocked_submit_reports_each_invalid_field_and_its_message(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/effects/validate.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Sign up"))
    assert re.search(r'invalid field "Email": "[^"]+"', fenced_part(printed)), printed
    assert strip_fence(workspace.ok("js", "document.getElementById('done').textContent")).strip() == ""
    workspace.ok("fill", ref(out, "textbox", "Username"), "admin")
    printed = workspace.ok("click", ref(out, "button", "Check username"))
    assert 'invalid field "Username": "That username is taken"' in fenced_part(printed)


def test_a_popup_opening_and_then_closing_itself_is_reported_and_is_a_success(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/effects/popup.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Sign in with provider"))
    assert f"opened tab 2 (popup): {site.url('/effects/popup-child.html')}" in effects(printed)
    workspace.ok("tab", "2")
    child = snap(workspace, "-i")
    result = workspace.run("click", ref(child, "button", "Allow"))
    assert result.code == 0, result.err
    assert "this tab closed itself; now on tab 1: " + site.url("/effects/popup.html") in result.out
    assert "signed in as ann" in strip_fence(workspace.ok("text"))
    assert workspace.ok("url").strip() == site.url("/effects/popup.html")
    printed = workspace.ok("click", ref(out, "button", "Quick popup"))
    assert "a popup opened and closed itself" in effects(printed)


def test_a_click_waits_for_the_fetch_it_started_so_the_toast_and_the_confirmed_item_are_reported(
    workspace: Workspace, site: Site
) -> None:
    site.route("/effects/save", slow_json({"id": 7}, 0.3))
    workspace.ok("goto", site.url("/effects/toast.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Save note"))
    assert 'message: "Note saved"' in fenced_part(printed)
    assert re.search(r'^\+.*button "Note 7"', fenced_part(printed), re.M), printed
    assert 'button "Note 7"' in snap(workspace, "-i")


def test_no_wait_answers_at_once_and_wait_text_then_sees_the_toast(workspace: Workspace, site: Site) -> None:
    site.route("/effects/save", slow_json({"id": 8}, 0.5))
    workspace.ok("goto", site.url("/effects/toast.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Save note"), "--no-wait")
    assert "Note saved" not in printed
    waited = workspace.ok("wait", "--text", "Note saved")
    assert re.fullmatch(r"Text 'Note saved' appeared after \d+ ms", waited.strip()), waited
    assert 'button "Note 8"' in snap(workspace, "-i")


def test_a_confirm_dialog_is_reported_with_its_text_and_answer_and_a_download_is_reported(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/effects/toast.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Delete all"))
    assert 'confirm dialog "Delete every note?": accepted' in fenced_part(printed)
    printed = workspace.ok("click", ref(out, "link", "Export"))
    assert 'download started: "notes.txt"' in fenced_part(printed)


def test_goto_waits_for_an_spa_that_paints_after_load_and_client_side_routes_settle(
    workspace: Workspace, site: Site
) -> None:
    site.route("/effects/settings", slow_json({"theme": "dark"}, 0.3))
    workspace.ok("goto", site.url("/effects/app.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "link", "Settings"))
    where = site.url("/effects/app.html?view=settings")
    assert f"URL changed to {where} (same document)" in effects(printed)
    assert "now at" not in printed
    after = snap(workspace, "-i")
    assert 'textbox "Theme"' in after and '"dark"' in after, after


def _post_form(handler: FixtureHandler) -> None:
    said = '<p role="alert">Saved</p>' if handler.command == "POST" else ""
    handler.reply(f'<title>Profile</title>{said}<form method="post"><button>Save profile</button></form>')


def test_a_post_that_returns_to_the_same_url_is_a_navigation_to_the_same_url(
    workspace: Workspace, site: Site
) -> None:
    url = site.route("/effects/profile", _post_form)
    workspace.ok("goto", url)
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Save profile"))
    assert f"navigated (same URL) to {url}" in effects(printed)
    assert re.search(r'^- alert @e\d+: "Saved"$', fenced_part(printed), re.M), printed  # in the new view
    assert printed.count("Saved") == 1 and "now at" not in printed
    assert workspace.ok("reload").startswith(f"Reloaded {url} (200)")


def test_a_link_click_reports_the_navigation_and_a_fill_only_what_it_did_not_ask_for(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    out = snap(workspace, "-i")
    name = ref(out, "textbox", "Name")
    assert workspace.ok("fill", name, "Ann").strip() == f'Filled {name} (3 characters): now "Ann"'
    assert re.search(rf'^\s*- textbox "Name" {name} .*: "Ann"$', snap(workspace, "-i"), re.M)
    assert workspace.ok("fill", name, "A").strip() == f'Filled {name} (1 character): now "A"'
    workspace.ok("fill", name, "Ann")
    emptied = workspace.ok("fill", name, "")  # not a value the report can be sure of: the diff says
    assert re.search(r'^-.*textbox "Name" @e\d+ .*"Ann"', fenced_part(emptied), re.M), emptied
    printed = workspace.ok("click", ref(out, "link", "Next page"))
    assert effects(printed).splitlines()[0] == f"navigated to {site.url('/snap/form-next.html')}"
    assert 'textbox "Query" @e' in fenced_part(printed)  # the new page's refs


def test_a_big_change_prints_the_new_view(workspace: Workspace, site: Site) -> None:
    rows = "".join(f"<li><button>Item {n}</button></li>" for n in range(40))
    url = site.page(
        "/effects/big",
        "<title>Big</title><button id=swap onclick=\"const l = document.getElementById('l'); "
        f"l.innerHTML = l.innerHTML.replaceAll('Item', 'Thing')\">Swap</button><ul id=l>{rows}</ul>",
    )
    workspace.ok("goto", url)
    snap(workspace, "-i")
    printed = workspace.ok("click", "#swap")
    assert "changed a lot" not in printed and re.search(r'button "Thing 39" @e\d+', printed), printed
    assert "Item 3" not in printed


def test_settle_takes_milliseconds(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    result = workspace.run("click", "#go", "--settle", "soon")
    assert result.code == 2 and "--settle" in result.err and "hint:" in result.err
    assert workspace.ok("click", "#go", "--settle", "0").startswith("Clicked #go")


def test_wait_gone_url_and_idle_say_what_they_waited_for_and_how_long(
    workspace: Workspace, site: Site
) -> None:
    site.route("/effects/slow", slow_json({"ok": True}, 0.4))
    workspace.ok("goto", site.url("/effects/table.html"))
    workspace.ok("js", "setTimeout(() => document.querySelector('h1').remove(), 300)")
    assert re.fullmatch(r"h1 is gone after \d+ ms", workspace.ok("wait", "--gone", "h1").strip())
    assert strip_fence(workspace.ok("js", "document.querySelectorAll('h1').length")).strip() == "0"
    workspace.ok("js", "setTimeout(() => history.pushState({}, '', '?step=2'), 300)")
    waited = workspace.ok("wait", "--url", "*step=2").strip()
    assert (
        waited
        == f"URL matches '*step=2': {site.url('/effects/table.html?step=2')} after "
        + waited.split()[-2]
        + " ms"
    )
    workspace.ok("js", "fetch('/effects/slow').then(r => r.json()).then(j => { window.fetched = j.ok })")
    waited = workspace.ok("wait", "--idle").strip()
    assert re.fullmatch(r"Page idle \(DOM quiet 100 ms, no requests in flight\): \S+ after \d+ ms", waited), (
        waited
    )
    assert strip_fence(workspace.ok("js", "window.fetched")).strip() == "true"


def test_wait_gone_on_a_ref_waits_for_that_element(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/effects/table.html"))
    out = snap(workspace, "-i")
    first = re.findall(r'button "Delete" (@e\d+)', out)[0]
    workspace.ok("js", "setTimeout(() => document.querySelector('tbody tr').remove(), 300)")
    assert re.fullmatch(rf"{first} is gone after \d+ ms", workspace.ok("wait", "--gone", first).strip())


def test_wait_rejects_two_forms_and_times_out_with_exit_4(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/effects/table.html"))
    result = workspace.run("wait", "--text", "Ann", "--idle")
    assert result.code == 2 and "wait takes one of" in result.err
    result = workspace.run("wait", "--text", "never on this page", "--timeout", "500")
    assert result.code == 4 and "hint:" in result.err
    result = workspace.run("wait", "#never", "--timeout", "500")
    assert result.code == 4
    assert result.err.startswith("error: timed out waiting for #never after 500 ms\n"), result.err
    assert "Locator" not in result.err and "wait_for" not in result.err


_SLOW_LOGIN = """<title>Sign in</title><form method="post" action="/effects/slow-login">
<label>User <input name="user"></label><button type="submit">Sign in</button></form>"""


def _slow_login(handler: FixtureHandler) -> None:
    """A sign-in whose POST answers after longer than the 5 s action timeout, then redirects."""
    if handler.command == "POST":
        handler.rfile.read(int(handler.headers["Content-Length"]))
        time.sleep(6)
        handler.reply("", status=303, headers={"Location": "/effects/signed-in"})
    else:
        handler.reply(_SLOW_LOGIN)


def test_a_click_that_starts_a_slow_navigation_waits_for_it_instead_of_timing_out(
    workspace: Workspace, site: Site
) -> None:
    site.page("/effects/signed-in", "<title>Home</title><h1>Welcome back</h1>")
    url = site.route("/effects/slow-login", _slow_login)
    workspace.ok("goto", url)
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Sign in"))
    assert effects(printed).splitlines()[0] == f"navigated to {site.url('/effects/signed-in')}", printed
    workspace.ok("goto", url)
    out = snap(workspace, "-i")
    workspace.ok("fill", ref(out, "textbox", "User"), "ann")
    pressed = effects(workspace.ok("press", "Enter"))
    assert pressed.splitlines()[0] == f"navigated to {site.url('/effects/signed-in')}"
    assert 'heading "Welcome back"' in pressed


def test_no_wait_on_a_slow_navigation_says_it_started_and_not_that_the_page_is_busy(
    workspace: Workspace, site: Site
) -> None:
    site.page("/effects/signed-in", "<title>Home</title><h1>Welcome back</h1>")
    url = site.route("/effects/slow-login", _slow_login)
    workspace.ok("goto", url)
    printed = workspace.ok("click", "--no-wait", ref(snap(workspace, "-i"), "button", "Sign in"))
    # It answers at once: the navigation is reported when it has already gone out, never as a busy page.
    assert effects(printed) in ("", f"navigation started to {url} (not waited for)"), printed
    assert "Welcome back" in workspace.ok("wait", "--timeout", "15000", "--text", "Welcome back")


def test_no_wait_never_says_nothing_changed(workspace: Workspace, site: Site) -> None:
    # It answers before the page could react: "nothing changed on the page" would be a guess.
    later = "<button onclick=\"setTimeout(() => document.body.append('Done'), 400)\">Go</button>"
    workspace.ok("goto", site.page("/effects/later", later))
    printed = workspace.ok("click", "--no-wait", ref(snap(workspace, "-i"), "button", "Go"))
    assert "nothing changed" not in printed, printed
    assert "Done" in workspace.ok("wait", "--text", "Done")


_FADING_DIALOG = """<title>Fading</title><style>
.scrim { position: fixed; inset: 0; background: #0006; transition: opacity 400ms; }
.scrim.out { opacity: 0; }
</style>
<button onclick="open_()">Delete</button><p id="state">kept</p>
<script>
function open_() {
  const scrim = document.createElement('div');
  scrim.className = 'scrim';
  scrim.innerHTML = '<div role="dialog" aria-label="Delete item?"><button>Confirm</button></div>';
  scrim.querySelector('button').onclick = () => {
    document.getElementById('state').textContent = 'deleted';
    scrim.classList.add('out');  // fades out, and leaves the page when the fade ends
    scrim.addEventListener('transitionend', () => scrim.remove());
  };
  document.body.append(scrim);
}
</script>"""


def test_a_dialog_that_fades_out_is_gone_when_the_click_answers(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/effects/fading", _FADING_DIALOG))
    workspace.ok("click", ref(snap(workspace, "-i"), "button", "Delete"))
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Confirm"))
    quoted = fenced_part(printed)  # the dialog's going is said once: by the diff
    assert re.search(r'^-\s*- dialog "Delete item\?" @e\d+', quoted, re.M), printed
    assert "dialog closed" not in quoted
    after = snap(workspace, "-i")
    assert "Confirm" not in after and 'button "Delete"' in after
    workspace.ok("click", ref(after, "button", "Delete"))  # not covered by a scrim on its way out


def test_a_notification_says_its_words_and_not_the_names_of_its_icon_glyphs(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/effects/notify.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Save"))
    # said once: by the view's alert line, or as the message of the notifications' list around it
    assert re.search(r'^(message: |\+- alert @e\d+: )"Saved Pay rent"$', fenced_part(printed), re.M), printed
    assert "check_circle" not in printed  # Quasar's aria-hidden Material icon: neither message nor view
    assert "check_circle" not in workspace.ok("snapshot")
    printed = workspace.ok("click", ref(out, "button", "Pay"))
    # a ligature not marked aria-hidden, text that is hidden, an aria-hidden close mark
    said = [line for line in fenced_part(printed).splitlines() if line.startswith(("alert: ", "message: "))]
    assert said == ['message: "Payment failed"'], printed
    assert "E_CARD_42" not in printed and "debug" not in printed


def test_a_search_dialog_always_on_the_page_is_not_named_by_its_results(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/effects/search.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("type", ref(out, "textbox", "Search"), "foot")
    assert "dialog opened" not in printed and "dialog closed" not in printed, printed
    assert re.search(r'^\+.*link "Footnotes', fenced_part(printed), re.M), printed
    # a dialog's own heading names it, without the icon glyph in it
    printed = workspace.ok("click", ref(out, "button", "Pick a date"))
    assert 'dialog opened: "Choose a day"' in fenced_part(printed), printed


def test_a_number_outside_any_form_is_not_called_invalid_for_its_step(
    workspace: Workspace, site: Site
) -> None:
    # Gradio's Number: an <input type=number> (step 1 by default) in no form; 2.5 is a fine value for the app,
    # and no submit will ever show the browser's step message.
    url = site.page(
        "/effects/number",
        "<title>Slow</title><input type=number aria-label=Seconds value=1>"
        "<button onclick=\"out.textContent = `slept ${document.querySelector('input').value} s`\">"
        "Wait</button>"
        "<p role=status id=out></p>",
    )
    out = workspace.ok("goto", url)
    workspace.ok("fill", ref(out, "spinbutton", "Seconds"), "2.5")
    printed = workspace.ok("click", ref(out, "button", "Wait"))
    assert 'status: "slept 2.5 s"' in fenced_part(printed), printed
    assert "invalid" not in printed, printed


# A chat as component libraries draw one: the conversation in a log, and a live region for screen
# readers that says the new messages again, without the labels the log's messages carry.
CHAT = """<!doctype html><title>Chat</title>
<div role="log" aria-label="conversation" id="log"></div>
<div aria-live="polite" id="said" style="position:absolute;left:-9999px"></div>
<button onclick="
  document.getElementById('log').innerHTML = '<p>user: hello</p><p>bot: The answer is 42.</p>';
  document.getElementById('said').textContent = 'hello The answer is 42.'">Send</button>"""


def test_a_live_region_that_repeats_a_chat_logs_new_line_is_said_once(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/effects/chat.html", CHAT))
    send = ref(snap(workspace, "-i"), "button", "Send")
    printed = fenced_part(workspace.ok("click", send))
    assert 'log "conversation": "user: hello bot: The answer is 42."' in printed, printed
    assert "live region" not in printed, printed


RESULT = """<!doctype html><title>Loan</title><button onclick="
document.getElementById('out').textContent = 'Payment: 96.56 per month'">Calculate</button>
<pre id="out" aria-live="polite">Press Calculate</pre>"""


def test_a_live_region_whose_text_is_a_line_of_the_diff_is_said_once(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/effects/loan.html", RESULT))
    calculate = ref(snap(workspace, "-i"), "button", "Calculate")
    printed = fenced_part(workspace.ok("click", calculate))
    assert printed.count("Payment: 96.56 per month") == 1, printed
