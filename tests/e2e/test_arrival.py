"""An action that lands on a new page prints its interactive view: refs to act on, no snapshot call."""

from __future__ import annotations

import re

import pytest
from test_snapshot import ref, snap

from conftest import FixtureHandler, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SAVED_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Saved</title></head>
<body><main><h1>Settings</h1><p role="status">Settings saved</p>
<a href="/snap/form.html">Back to the form</a></main></body></html>"""

SAVE_FORM = """<!doctype html><html><head><meta charset="utf-8"><title>Settings</title></head>
<body><form method="post" action="/arrival/save"><label>Nickname <input name="nick"></label>
<button>Save settings</button></form></body></html>"""


def test_goto_prints_the_pages_refs_and_an_action_can_use_them_at_once(
    workspace: Workspace, site: Site
) -> None:
    printed = workspace.ok("goto", site.url("/snap/login.html"))
    assert printed.startswith(f"Navigated to {site.url('/snap/login.html')} (200)\n")
    view = strip_fence(printed.split("\n", 1)[1])
    assert view.startswith('title: "Sign in to Acme"\npage: login · login form present')
    email = ref(view, "textbox", "Email")
    assert "(password hidden)" in view and "hunter2" not in printed
    workspace.ok("fill", email, "ada@example.com")
    value = workspace.ok("js", "document.getElementById('u').value")
    assert strip_fence(value).strip() == "ada@example.com"


def test_the_printed_view_is_what_snapshot_i_shows_and_its_previous_view_for_diff(
    workspace: Workspace, site: Site
) -> None:
    printed = workspace.ok("goto", site.url("/snap/form.html"))
    view = strip_fence(printed.split("\n", 1)[1])
    # a page this small arrives whole: its text lines (no ref, no role) come beside the refs
    controls = [line for line in view.splitlines() if not line.lstrip().startswith('- "')]
    assert len(controls) < len(view.splitlines())
    assert snap(workspace, "-i").splitlines()[:-1] == controls[:-1]  # all but the token count
    workspace.ok("goto", site.url("/snap/form.html"))
    assert snap(workspace, "-i", "-D") == "(no change since the previous snapshot)"


def test_a_click_that_loads_a_new_page_reports_the_navigation_and_the_new_pages_refs(
    workspace: Workspace, site: Site
) -> None:
    out = strip_fence(workspace.ok("goto", site.url("/snap/form.html")).split("\n", 1)[1])
    printed = workspace.ok("click", ref(out, "link", "Next page"))
    lines = printed.splitlines()
    assert lines[1] == f"navigated to {site.url('/snap/form-next.html')}"
    query = ref(strip_fence("\n".join(lines[2:])), "textbox", "Query")
    workspace.ok("fill", query, "kittens")


def test_an_action_that_stays_on_its_page_prints_no_page_view(workspace: Workspace, site: Site) -> None:
    out = strip_fence(workspace.ok("goto", site.url("/snap/form.html")).split("\n", 1)[1])
    printed = workspace.ok("check", ref(out, "checkbox", "Gift wrap"))
    assert "title:" not in printed and "tokens" not in printed, printed


def test_a_message_on_the_page_a_form_post_lands_on_is_printed_once(workspace: Workspace, site: Site) -> None:
    def save(handler: FixtureHandler) -> None:
        handler.reply(SAVED_PAGE)

    site.route("/arrival/save", save)
    out = strip_fence(workspace.ok("goto", site.page("/arrival/settings", SAVE_FORM)).split("\n", 1)[1])
    printed = workspace.ok("click", ref(out, "button", "Save settings"))
    assert printed.count("Settings saved") == 1, printed
    assert re.search(r'link "Back to the form" @e\d+', printed), printed


def test_a_long_page_is_cut_to_the_budget_with_what_is_in_view_first(
    workspace: Workspace, site: Site
) -> None:
    printed = workspace.ok("goto", site.url("/snap/big.html"))
    view = strip_fence(printed.split("\n", 1)[1])
    assert 'button "Button 0" @e' in view and 'button "Button 499"' not in view
    assert "left out to stay under 1000 tokens" in view
    tokens = int(re.search(r"^~(\d+) tokens$", view, re.M).group(1))  # type: ignore[union-attr]
    assert tokens <= 1000, view
    assert len(snap(workspace, "-i", "--max-tokens", "25000")) > 4 * len(view)


def test_json_gives_the_new_pages_refs_as_data(workspace: Workspace, site: Site) -> None:
    result = workspace.run("--json", "goto", site.url("/snap/login.html"))
    page = result.json["data"]["page"]  # type: ignore[index]
    assert page["title"] == "Sign in to Acme"
    roles = {(r["role"], r["name"]) for r in page["refs"]}
    assert {("textbox", "Email"), ("button", "Sign in")} <= roles


def test_the_next_action_diffs_against_the_printed_view(workspace: Workspace, site: Site) -> None:
    view = strip_fence(workspace.ok("goto", site.url("/effects/table.html")).split("\n", 1)[1])
    deletes = re.findall(r'button "Delete" (@e\d+)', view)
    printed = workspace.ok("click", deletes[1])
    changed = [line for line in strip_fence(printed.split("\n", 1)[1]).splitlines() if line[:1] in "+-"]
    assert changed and any(deletes[1] in line for line in changed if line.startswith("-")), printed
    assert not any(deletes[0] in line or deletes[2] in line for line in changed), printed


def test_a_small_pages_sentence_broken_by_links_is_one_line_and_its_links_keep_their_refs(
    workspace: Workspace, site: Site
) -> None:
    view = strip_fence(workspace.ok("goto", site.url("/snap/sentence.html")).split("\n", 1)[1])
    lines = [line.strip() for line in view.splitlines()]
    assert '- "Note: See TracTickets for help on using tickets."' in lines
    assert '- "Powered by Trac 1.6 By Edgewall Software."' in lines
    for piece in ('- "See"', '- "Note:"', '- "."', '- "By"', '- "Trac 1.6"', '- "Modify ↓"', '- "↓"'):
        assert piece not in lines, view  # no pieces between the links, no link's words twice
    # A label over links is no sentence: joined, it would only say the links' names twice.
    assert '- "Administration"' in lines and "Administration Class List" not in view, view
    assert (
        ref(view, "link", "TracTickets")
        and ref(view, "link", "Edgewall Software")
        and ref(view, "link", "Modify")
        and ref(view, "link", "User List")
    )


def test_a_label_element_beside_its_field_is_not_a_line_of_a_small_page(
    workspace: Workspace, site: Site
) -> None:
    # Wagtail's sign-in form: <label for=…>Username<span>*</span></label>, then the field in wrappers
    # of its own; the label's words are the field's name already.
    field = (
        "<div><label for=id_{0}>{1}<span>*</span></label>"
        "<div><div><input id=id_{0} name={0} required></div></div></div>"
    )
    fields = field.format("username", "Username") + field.format("pw", "Password")
    form = f"<form>{fields}<button>Sign in</button></form>"
    view = strip_fence(workspace.ok("goto", site.page("/arrival/labels", form)).split("\n", 1)[1])
    lines = [line.strip() for line in view.splitlines()]
    assert '- "Username*"' not in lines and '- "Password*"' not in lines, view
    assert ref(view, "textbox", "Username*") and ref(view, "textbox", "Password*"), view
