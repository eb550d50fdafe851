"""An action's report holds the next step: what came before what went, a new view when most of it is new."""

from __future__ import annotations

import re

import pytest
from test_effects import fenced_part
from test_snapshot import ref, snap

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_a_replaced_panel_lists_its_new_controls_first_and_counts_what_went(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/launcher.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Python 3"))
    quoted = fenced_part(printed).splitlines()
    changed = quoted[quoted.index("changed in the interactive view:") + 1 :]
    came = [n for n, line in enumerate(changed) if re.search(r'"(Cell 1|Run cell|Add cell)" @e\d+', line)]
    gone = [n for n, line in enumerate(changed) if line.startswith("- ") and "lines" in line]
    assert len(came) == 3 and all(changed[n].startswith("+") for n in came), printed
    assert gone and max(came) < min(gone), printed
    assert re.search(r'^- \d+ lines of "Launcher" are gone$', changed[gone[0]]), printed
    assert "Julia console" not in printed


def test_a_route_change_of_most_of_the_view_prints_the_new_view_with_its_refs(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/route.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "link", "Orders"))
    assert "URL changed to" in printed and "changed a lot" not in printed
    quoted = fenced_part(printed)
    assert quoted.startswith('title: "Shop"'), printed
    assert re.search(r'button "Order 29 details" @e\d+', quoted), printed
    assert "Product" not in quoted


def test_switching_tab_prints_the_tabs_view(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports/launcher.html"))
    workspace.ok("newtab", site.url("/reports/route.html"))
    printed = workspace.ok("tab", "1")
    assert printed.startswith("Switched to tab 1: ")
    assert re.search(r'button "Python 3" @e\d+', fenced_part(printed)), printed
    workspace.ok("closetab", "2")


def test_controls_in_live_regions_roving_rows_row_named_fields_and_long_lists(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/lines.html"))
    out = snap(workspace, "-i")
    for name in ("Undo", "Yes", "No"):
        assert re.search(rf'^\s+- button "{name}" @e\d+', out, re.M), out
    for name in ("alpha.txt", "beta.txt", "gamma.txt"):
        assert re.search(rf'listitem "{name}" @e\d+', out), out
    assert re.search(r'textbox "Last login: Date" @e\d+', out), out
    assert re.search(r'textbox "Last login: Time" @e\d+', out), out
    listbox = ref(out, "listbox", "Permissions")
    assert "Can change thing 30" not in out
    assert re.search(
        r'- 48 options, selected: "Can change thing 5", "Can change thing 9"; others e\.g\. .*'
        rf"`browse snapshot -s {listbox}` lists them",
        out,
    ), out
    assert "Can change thing 30" in snap(workspace, "-i", "-s", listbox)
    printed = workspace.ok("click", ref(out, "button", "Undo"))
    assert "Clicked" in printed


def test_a_server_message_on_the_page_an_action_arrived_at_is_a_message_line(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/lines.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "link", "Save"))
    assert 'message: "The user was added successfully."' in fenced_part(printed), printed
    back = workspace.ok("click", ref(snap(workspace, "-i"), "link", "Add user"))
    assert 'message: "0"' not in back, back


@pytest.mark.parametrize(
    ("said", "line"),
    [
        (  # Roundup's "Welcome admin!" after logging in
            '<p class="ok-message"><span>Welcome admin!</span> <a href="/x">clear this message</a></p>',
            'message: "Welcome admin!"',  # its link clears it: no words of it
        ),
        (  # Trac's notice after saving a wiki page
            '<div id="notice" class="notice system-message"><a href="#" title="Hide this notice">x</a> '
            'Saved in version 2 (<a href="/d">diff</a>).</div>',
            'message: "Saved in version 2 (diff)."',
        ),
    ],
)
def test_a_server_message_without_a_role_is_a_message_line(
    workspace: Workspace, site: Site, said: str, line: str
) -> None:
    chat = "<div class=chat-message>hi there</div>"
    arrived = site.page("/reports/said", f"<h1>Issues</h1>{said}{chat}")
    workspace.ok("goto", site.page("/reports/to-said", f"<a href='{arrived}'>Log in</a>"))
    printed = fenced_part(workspace.ok("click", ref(snap(workspace, "-i"), "link", "Log in")))
    assert line in printed, printed
    assert 'message: "hi there"' not in printed, printed  # a chat's words are the page's text, no message
    assert printed.count("Welcome admin!") <= 1 and printed.count("Saved in version 2") <= 1, printed


@pytest.mark.parametrize("delay", ["-1", "0"])
def test_a_popup_that_posts_and_closes_itself_is_a_success_back_on_the_opener(
    workspace: Workspace, site: Site, delay: str
) -> None:
    opener = site.url("/reports/related.html")
    workspace.ok("goto", opener)
    workspace.ok("js", f"document.getElementById('add').href = 'related-popup.html?delay={delay}'")
    workspace.ok("click", "#add")
    workspace.ok("tab", "2")
    workspace.ok("fill", "input[name=name]", f"editors{delay}")
    result = workspace.run("click", "button")
    assert result.code == 0, result.err
    assert f"this tab closed itself; now on tab 1: {opener}" in result.out
    assert (
        strip_fence(workspace.ok("js", "document.getElementById('group').value")).strip() == f"editors{delay}"
    )


def test_a_scoped_snapshot_holds_only_what_the_element_contains(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports/scope.html"))
    scoped = snap(workspace, "-i", "-s", "#panel")
    assert 'button "Inside the panel"' in scoped and "Outside" not in scoped, scoped


def test_text_of_a_web_component_with_an_icon_in_its_shadow_root(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports/component.html"))
    said = strip_fence(workspace.ok("text", "#card"))
    assert "Living room" in said and "21 °C" in said and "undefined" not in said, said


def test_lines_that_said_nothing_are_gone_and_a_check_says_the_new_state(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/noise.html"))
    out = snap(workspace, "-i")
    assert '(row "Alpha")' in out and '(row "»")' not in out, out
    assert len(re.findall(r'option "Red"', out)) == 1, out
    assert 'listitem (near "No results")' not in out, out
    box = ref(out, "checkbox", "Remember me")
    assert workspace.ok("check", box).strip() == f"Checked {box}: now checked"
    assert workspace.ok("uncheck", box).strip() == f"Unchecked {box}: now unchecked"
    workspace.ok("click", ref(out, "button", "Delete"))
    scoped = snap(workspace, "-i", "-s", "dialog")
    assert "(listed above)" not in scoped and re.search(r'button "Yes, delete" @e\d+', scoped), scoped


def test_an_app_shell_that_paints_after_load_is_waited_for(workspace: Workspace, site: Site) -> None:
    printed = workspace.ok("goto", site.url("/reports/shell.html"))
    assert re.search(r'button "Run cell" @e\d+', printed), printed
    assert "nothing to show" not in printed


def test_a_shell_whose_main_panel_is_still_bare_after_load_is_waited_for(
    workspace: Workspace, site: Site
) -> None:
    printed = workspace.ok("goto", site.url("/reports/workbench.html"))
    assert re.search(r'button "File" @e\d+', printed), printed
    assert re.search(r'button "Python 3 \(ipykernel\)" @e\d+', printed), printed
    printed = workspace.ok("goto", site.url("/reports/workbench.html?forever"))
    assert "the page still had nothing in its main panel after waiting" in printed, printed


def test_a_loading_indicator_the_action_brought_up_is_waited_out_up_to_a_cap(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/loading.html"))
    out = snap(workspace, "-i")
    printed = workspace.ok("click", ref(out, "button", "Open notebook"))
    assert re.search(r'textbox "Cell 1" @e\d+', printed) and "the cap" not in printed, printed
    printed = workspace.ok("click", ref(out, "button", "Load report"))
    assert re.search(r'button "Download report" @e\d+', printed) and "Loading…" not in printed, printed
    printed = workspace.ok("click", ref(out, "button", "Load forever"))
    assert "still shows a loading indicator after waiting" in printed and "(the cap)" in printed, printed


def test_find_matches_across_inline_elements_and_locates_hits_by_their_definition_term(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/docs.html"))
    found = strip_fence(workspace.ok("find", "gather(*aws, return_exceptions=False)"))
    first = found.splitlines()[0]
    assert re.match(
        r"@e\d+ \(term\): \"awaitable asyncio\.gather ?\(\*aws, return_exceptions=False\)\"$", first
    ), found
    term = first.split()[0]
    inside = strip_fence(workspace.ok("find", "automatically scheduled"))
    assert re.match(rf"@e\d+ \(paragraph under term {term} ", inside), inside  # its own ref, and the term's
    assert '"Run awaitable objects in the aws sequence concurrently. If any awaitable' in inside, inside
    passage = strip_fence(workspace.ok("read", term))
    assert passage.startswith("awaitable asyncio.gather(*aws, return_exceptions=False)"), passage
    assert "the first raised exception is immediately propagated." in passage and "Shielding" not in passage
    assert strip_fence(workspace.ok("read", "#asyncio.gather")) == passage
    section = strip_fence(workspace.ok("read", "#shielding"))
    assert section.startswith("Shielding From Cancellation") and "Protect an awaitable" in section, section
    result = workspace.run("read")
    assert result.code == 2 and "read needs a ref" in result.err


def test_a_fragment_prints_its_passage_and_an_article_leads_with_its_outline(
    workspace: Workspace, site: Site
) -> None:
    printed = workspace.ok("goto", site.url("/reports/docs.html#asyncio.gather"))
    quoted = fenced_part(printed)
    assert quoted.startswith("passage at #asyncio.gather:\nawaitable asyncio.gather("), quoted  # read first
    lines = quoted[quoted.index("\ntitle: ") + 1 :].splitlines()
    assert lines[2] == "outline:" and re.match(r'- heading "Coroutines and Tasks" @e\d+$', lines[3]), quoted
    assert re.search(r'^  - heading "Running Tasks Concurrently" @e\d+$', quoted, re.M), quoted
    assert re.search(r'^search: searchbox "Quick search" @e\d+$', quoted, re.M), quoted
    assert "passage at #asyncio.gather:\nawaitable asyncio.gather(*aws, return_exceptions=False)" in quoted
    out = snap(workspace, "-i")
    clicked = workspace.ok("click", ref(out, "link", "Running Tasks Concurrently"))
    assert "passage at #running-tasks-concurrently:\nRunning Tasks Concurrently" in fenced_part(clicked), (
        clicked
    )


def test_a_docs_sidebar_keeps_its_headings_apart_and_a_repeated_search_box_is_said_once(
    workspace: Workspace, site: Site
) -> None:
    quoted = fenced_part(workspace.ok("goto", site.url("/reports/sphinx.html")))
    lead = quoted[: quoted.index("\n- navigation")]
    assert re.search(
        r'^  - heading "Task Object" @e\d+\nheadings in navigation "main navigation":\n'
        r'- heading "Table of Contents" @e\d+\n  - heading "Previous topic" @e\d+\n'
        r'- heading "This Page" @e\d+$',
        lead,
        re.M,
    ), lead
    assert len(re.findall(r'^search: textbox "Quick search" @e\d+$', lead, re.M)) == 1, lead


def test_an_explicit_interactive_snapshot_of_a_long_page_has_a_small_budget(
    workspace: Workspace, site: Site
) -> None:
    links = "".join(f'<p><a href="#p{n}">Chapter {n} of a very long manual page</a></p>' for n in range(600))
    workspace.ok("goto", site.page("/reports/long", f"<title>Long</title><main>{links}</main>"))
    printed = workspace.ok("snapshot", "-i")
    assert len(printed) < 12_000, len(printed)
    assert "stops at 2000 tokens by default: `--max-tokens N` allows more" in printed
    assert "Chapter 599" in workspace.ok("snapshot", "-i", "--max-tokens", "30000")


# TiddlyWiki's story river: each card has its own "more" and "Edit" buttons; a second card makes the
# first card's repeated, so they get a row hint, with nothing changed on the first card.
CARDS = """<!doctype html><title>Cards</title><button onclick="add()">Save card</button><div id="river">
<article><h2>GettingStarted</h2><button>more</button><button>Edit this card</button></article></div>
<script>
function add() {
  document.getElementById('river').insertAdjacentHTML('afterbegin',
    '<article><h2>Shopping</h2><p>26th November</p><button>more</button>'
    + '<button>Edit this card</button></article>');
}
</script>"""


def test_a_control_whose_hint_alone_changed_is_not_reported_as_changed(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/reports/cards.html", CARDS))
    before = snap(workspace, "-i")
    more = ref(before, "button", "more")
    printed = fenced_part(workspace.ok("click", ref(before, "button", "Save card")))
    assert '+- heading "Shopping"' in printed, printed
    assert more not in printed, printed  # the first card's button: only its hint is new
    assert ref(snap(workspace, "-i"), "button", "more") != more  # the new card's comes first, hinted
