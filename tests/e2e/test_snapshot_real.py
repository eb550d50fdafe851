"""Snapshots on the patterns real apps use: web components, top-layer and shadow dialogs,
unnamed fields, repeated row buttons, long docs pages. End to end through `browse`."""

from __future__ import annotations

import re

import pytest
from test_snapshot import ref, refs, snap

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def page_text(workspace: Workspace, selector: str = "#r") -> str:
    return strip_fence(workspace.ok("text", selector)).strip()


# web components


def test_slotted_and_shadow_buttons_click_without_a_false_cover_or_stale_error(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/real/components.html"))
    out = snap(workspace, "-i")
    for name, effect in [
        ("Save", "saved"),  # light DOM, slotted into a shadow root
        ("Send", "pressed Send"),  # the <button> is in the shadow root, its label slotted text
        ("Archive", "pressed Archive"),  # ... and here a slotted <span>
        ("Star", "starred"),  # the centre hits a span inside the button's own shadow root
        ("Delete", "deleted"),  # the DOM text holds a hidden part the accessible name leaves out
    ]:
        result = workspace.run("click", ref(out, "button", name))
        assert result.code == 0, f"{name}: {result.err}"
        assert page_text(workspace) == effect


def test_a_password_is_never_printed_in_shadow_dom_or_an_iframe(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/components.html"))
    workspace.ok("fill", "md-login input[type=password]", "-", input="hunter2-shadow")
    for flags in ((), ("-i",)):
        out = snap(workspace, *flags)
        assert "hunter2" not in out
        assert re.search(r'textbox "Password" @e\d+: "\(password hidden\)"', out)
    workspace.ok("goto", site.url("/real/settings.html"))
    workspace.ok("fill", "iframe >> internal:control=enter-frame >> #ipw", "-", input="hunter2-frame")
    out = snap(workspace)
    assert "hunter2" not in out
    assert re.search(r'textbox "Secret" @e\d+: "\(password hidden\)"', out)


def test_text_reads_shadow_roots_slots_and_iframes(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/components.html"))
    text = strip_fence(workspace.ok("text"))
    for words in ("Profile", "Save", "Send", "Archive", "Sign in"):
        assert words in text
    workspace.ok("goto", site.url("/real/settings.html"))
    whole = strip_fence(workspace.ok("text"))
    assert "--- frame " in whole and "Preview of the profile card." in whole
    frame = ref(snap(workspace, "-i"), "iframe", "Preview")
    assert strip_fence(workspace.ok("text", frame)).startswith("Preview of the profile card.")


# overlays and scoping


def test_a_top_layer_dialog_comes_first_and_scopes_to_itself(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/dialogs.html?open=top"))
    out = snap(workspace, "-i")
    lines = out.splitlines()
    assert lines[2] == '⚠ blocking modal dialog "Delete 3 messages?": deal with it first'
    assert re.match(r'  - dialog "Delete 3 messages\?" @e\d+$', lines[3])
    scoped = snap(workspace, "-i", "-s", "dialog")
    assert "Compose" not in scoped.split("deal with it first")[1]  # the dialog covers the page: not its part
    assert 'button "Cancel"' in scoped
    workspace.ok("click", ref(out, "button", "Delete"))
    assert page_text(workspace) == "deleted"


def test_an_aria_modal_dialog_inside_a_shadow_root_is_a_blocking_overlay(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/real/dialogs.html?open=shadow"))
    out = snap(workspace, "-i")
    assert out.splitlines()[2] == '⚠ blocking modal dialog "Session expired": deal with it first'
    assert re.match(r'    - button "Sign in again" @e\d+$', out.splitlines()[4])
    under = workspace.run("click", ref(out, "button", "Compose"))
    assert under.code == 1 and "is covered by another element" in under.err


def test_scope_follows_the_dom_through_slots_not_boxes(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/components.html"))
    scoped = snap(workspace, "-i", "-s", "md-card")
    assert 'heading "Profile"' in scoped and 'button "Save"' in scoped
    assert "Star" not in scoped and "Account" not in scoped


# what -i keeps and says


def test_interactive_snapshot_keeps_messages_states_and_label_context(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/real/settings.html"))
    out = snap(workspace, "-i")
    assert '- status: "Draft saved at 10:42"' in out  # a toast
    assert '- "Your trial ends in 3 days."' in out  # a banner
    assert re.search(r'- alert @e\d+: "Please fix 2 errors below."', out)
    assert re.search(r'- textbox "Username" @e\d+ \[required\]: "ada"', out)
    assert re.search(
        r'- textbox "Email" @e\d+ \[invalid\] \[required\]: "not-an-email"\n\s+- "Enter a valid', out
    )
    # an unnamed field is never named by its own value, and says what text comes before it
    assert re.search(r'- textbox @e\d+ \(near "Last login: Date:"\): "2024-01-02"', out)
    assert '"2024-01-02" @e' not in out and 'textbox "The Analyst"' not in out
    assert re.search(r'- button "More" @e\d+ \[expanded=false\]', out)
    assert re.search(r'"Advanced" @e\d+ \[expanded=false\]', out)
    assert re.search(r'- button "Save changes" @e\d+ \[disabled\]', out)
    assert re.search(r'- iframe "Preview" @e\d+', out)
    assert re.search(r'- link "fetch_items\(\)" @e\d+', out)
    assert re.search(r'- combobox "Timezone" @e\d+ \[expanded=false\]: "UTC\+01:00"', out)


# Shaped like Material Web's md-outlined-select (a combobox in a shadow root, its label outside
# the combobox) and MWC's mwc-select (a button labelled by its label and the selected text).
MATERIAL_SELECTS = """<meta charset="utf-8"><title>Selects</title>
<style>md-select-like::part(arrow)::after { content: "\\25BE"; }</style>
<md-select-like></md-select-like><mwc-select-like></mwc-select-like>
<script>
customElements.define('md-select-like', class extends HTMLElement { connectedCallback() {
  this.attachShadow({mode: 'open'}).innerHTML = `<span id="l">Fruit</span>
    <div role="combobox" tabindex="0" aria-labelledby="l" aria-expanded="false" aria-haspopup="listbox"
      aria-controls="m"><span>Banana</span><span part="arrow"></span></div>
    <div role="listbox" id="m" hidden><div role="option">Apple</div>
      <div role="option" aria-selected="true">Banana</div></div>`;
}});
customElements.define('mwc-select-like', class extends HTMLElement { connectedCallback() {
  this.attachShadow({mode: 'open'}).innerHTML = `<div role="button" tabindex="0" aria-haspopup="listbox"
    aria-expanded="false" aria-labelledby="label selected"><span id="label">Colour</span>
    <span id="selected">Green</span></div>`;
}});
</script>"""


def test_material_selects_in_shadow_roots_show_their_chosen_value(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/real/material-selects", MATERIAL_SELECTS))
    out = snap(workspace, "-i")
    assert re.search(r'- combobox "Fruit" @e\d+ \[expanded=false\]: "Banana', out), out
    assert re.search(r'- button "Colour Green" @e\d+ \[expanded=false\]', out), out
    assert "Apple" not in out  # the closed listbox's options are not listed


def test_a_closed_select_of_a_hundred_options_is_one_line_in_every_view(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/real/settings.html"))
    for flags in ((), ("-i",)):
        out = snap(workspace, *flags)
        country = ref(out, "combobox", "Country")
        pick = f"(`browse select {country} NAME` picks one)"
        line = f'- 100 options, e.g. "Afghanistan", "Albania", "Algeria" … {pick}'
        assert line in out
        assert "Country 50" not in out
        assert '[placeholder=""]' not in out


def test_repeated_buttons_say_their_row_and_focusable_rows_get_refs(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/invoices.html"))
    out = snap(workspace, "-i")
    found = refs(out)
    assert re.search(r'- button "Refund" @e\d+ \(row "INV-1042"\)', out)
    assert re.search(r'- button "Open" @e\d+ \(row "budget.xlsx"\)', out)
    assert 'link "Home"' in out and "(row" not in out.split('link "Home"')[1].splitlines()[0]
    assert "- row" not in out.split('link "Home"')[0], out  # a layout table's row is no data row
    second = re.search(r'- button "Refund" (@e\d+) \(row "INV-1042"\)', out)
    assert second
    workspace.ok("click", second.group(1))
    assert page_text(workspace) == "refund 1042"
    workspace.ok("dblclick", found[("row", "todo.md")])
    assert page_text(workspace) == "opened todo.md"


def test_tables_keep_image_alt_text_and_put_data_tables_first(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/invoices.html"))
    out = strip_fence(workspace.ok("tables"))
    assert out.splitlines()[:3] == [
        "Invoice,Customer,Paid,",
        "INV-1041,Ada,True,Refund",
        "INV-1042,Grace,False,Refund",
    ]
    assert out.splitlines()[-1] == "Home,Help"


def test_type_into_a_selector_types_key_by_key(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/settings.html"))
    username = ref(snap(workspace, "-i"), "textbox", "Username")
    assert workspace.ok("type", username, " lovelace").startswith(f"Typed 9 characters into {username}")
    assert strip_fence(workspace.ok("js", "document.getElementById('user').value")).strip() == "ada lovelace"
    missing = workspace.run("type", "#nope", "x")
    assert missing.code == 1 and "#nope" in missing.err


# long pages


def test_find_gives_each_match_a_ref_and_its_section(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/docs.html"))
    out = strip_fence(workspace.ok("find", "default timeout"))
    assert re.fullmatch(
        r'@e\d+ \(paragraph under heading @e\d+ "Section 41: item_41\(\)"\): '
        r'"…?.*the default timeout is 30\."',
        out,
    ), out
    links = strip_fence(workspace.ok("find", "--regex", r"item_4\d\(\)", "--limit", "3")).splitlines()
    assert len(links) == 4 and re.match(r"@e\d+ \(link\): \"item_40\(\)\"", links[0])
    assert re.match(r"… \d+ more matches", links[-1])
    assert "no match for 'zebra'" in workspace.ok("find", "zebra")
    bad = workspace.run("find", "--regex", "fetch(")
    assert bad.code == 2 and bad.err.startswith("error: --regex 'fetch(' is not a valid pattern")


def test_text_and_snapshot_stay_under_max_tokens(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/docs.html"))
    text = strip_fence(workspace.ok("text", "--max-tokens", "200"))
    assert len(text) <= 800 and "more characters left out" in text
    out = snap(workspace, "--max-tokens", "300")
    assert len(out) <= 1200
    assert re.search(r'- link "item_0\(\)" @e\d+ → #s0', out)  # a link named by its <code> keeps that name
    assert "left out to stay under 300 tokens" in out
    assert not re.search(r"^\s*- listitem$\n(?!\s+- )", out, re.M)  # no wrapper kept without what it wraps
    fits = snap(workspace, "-i", "-s", "form", "--max-tokens", "2000")
    assert "left out" not in fits and "nothing to show" not in fits and 'searchbox "Search docs"' in fits


def test_diff_after_a_navigation_says_it_is_a_new_page(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/invoices.html"))
    snap(workspace)
    assert "(no change since the previous snapshot)" in snap(workspace, "-D")
    workspace.ok("goto", site.url("/real/settings.html"))
    out = snap(workspace, "-D")
    assert out.startswith("(new page since the previous snapshot: nothing to compare)")
    assert 'heading "Settings"' in out and "+++" not in out


# triage


@pytest.mark.parametrize(
    ("form", "login"),
    [
        ('<input name="u"><input type="password" name="p"><button>Sign in</button>', True),
        ('<input name="u"><input type="password"><input type="password"><button>Sign up</button>', False),
        (
            '<input type="password" autocomplete="new-password"><input name="email"><button>Join</button>',
            False,
        ),
        ('<input type="password" name="p"><button>Unlock</button>', False),
    ],
)
def test_a_login_form_is_a_sign_in_form(workspace: Workspace, site: Site, form: str, login: bool) -> None:
    url = site.page(f"/real/login-{abs(hash(form))}", f"<title>t</title><form>{form}</form>")
    workspace.ok("goto", url)
    assert ("login form present" in snap(workspace, "-i")) == login


def test_search_results_are_what_the_page_says_not_the_url(workspace: Workspace, site: Site) -> None:
    plain = site.page("/real/find", "<title>Shop</title><h1>Welcome</h1><p>Our products.</p>")
    workspace.ok("goto", plain + "?q=shoes")
    assert "page: search results" not in snap(workspace, "-i")
    results = site.page("/real/results", "<title>Shop</title><h1>12 results for “shoes”</h1><a href=/a>A</a>")
    workspace.ok("goto", results)
    assert "page: search results" in snap(workspace, "-i")


# -C


def test_clickables_respect_the_scope_and_leave_out_the_nameless_unless_all(
    workspace: Workspace, site: Site
) -> None:
    url = site.page(
        "/real/clickables",
        "<title>c</title><div id=a><span onclick='1' style='cursor:pointer'>Alpha</span>"
        "<span onclick='1' style='display:inline-block;width:20px;height:20px'></span></div>"
        "<div id=b><span onclick='1'>Beta</span></div>",
    )
    workspace.ok("goto", url)
    every = snap(workspace, "-C")
    assert '"Alpha"' in every and '"Beta"' in every and not re.search(r"- span @c\d+", every)
    assert re.search(r"- span @c\d+", snap(workspace, "-C", "--all"))
    scoped = snap(workspace, "-C", "-s", "#a")
    assert '"Alpha"' in scoped and "Beta" not in scoped


# hints that name the right control


def test_a_column_menu_icon_is_named_by_its_own_header_not_the_previous_one(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/real/datatable.html"))
    out = snap(workspace, "-i")
    icon = re.search(
        r'link "population" @e\d+\n- button (?:"dropdown menu" )?(@e\d+) \(near "population"\)', out
    )
    assert icon, out
    assert '(near "country")' not in out
    workspace.ok("click", icon.group(1))
    assert page_text(workspace) == "menu of population"


def test_an_unnamed_checkbox_is_named_by_the_label_text_after_it(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/real/widgets.html"))
    out = snap(workspace, "-i")
    assert re.search(r'- textbox @e\d+ \(near "Nights"\): "3"', out), out
    box = re.search(r'- checkbox (@e\d+) \(near "Breakfast included"\)', out)
    assert box, out
    workspace.ok("click", box.group(1))
    assert page_text(workspace) == "breakfast on"


# MLflow's experiments: each row's selection checkbox, unnamed and alone in its cell.
SELECTABLE = """<!doctype html><title>Experiments</title><table>
<tr><th><input type="checkbox" aria-label="Select all"></th><th>Name</th></tr>
<tr><td><input type="checkbox"></td><td><a href="#1">churn-model</a></td></tr>
<tr><td><input type="checkbox"></td><td><a href="#0">Default</a></td></tr></table>"""


def test_a_rows_unnamed_checkbox_alone_in_its_cell_says_its_row(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/real/selectable.html", SELECTABLE))
    out = snap(workspace, "-i")
    assert re.search(r'- checkbox @e\d+ \(row "churn-model"\)', out), out
    assert re.search(r'- checkbox @e\d+ \(row "Default"\)', out), out


# Django admin's sidebar: each model's row is its name's link, then its Add and Change links; the
# breadcrumbs name the model too.
SIDEBAR = """<!doctype html><title>Admin</title><nav aria-label="Breadcrumbs"><a href="/">Home</a> ›
<a href="/users/">Users</a></nav><nav aria-label="Sidebar"><table>
<tr><th scope="row"><a href="/groups/">Groups</a></th><td><a href="/groups/add/">Add</a></td></tr>
<tr><th scope="row"><a href="/users/">Users</a></th><td><a href="/users/add/">Add</a></td></tr>
</table></nav>"""


def test_a_link_that_names_its_row_gets_no_other_controls_name_as_its_row(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/real/sidebar.html", SIDEBAR))
    out = snap(workspace, "-i")
    assert re.search(r'- link "Add" @e\d+ \(row "Users"\)', out), out
    assert re.search(r'- link "Users" @e\d+\n', out) and '(row "Add")' not in out, out


def test_a_full_screen_layer_lists_the_refs_above_its_backdrop_and_says_its_name(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/real/docsearch.html"))
    out = snap(workspace, "-i")
    assert "no refs inside" not in out
    warning = out.split("\n- ")[0]
    assert '⚠ blocking full-screen layer "Search": deal with it first' in warning
    assert re.search(r'  - link "Installation" (@e\d+)', warning), out
    assert "Next page" not in warning  # under the backdrop: not part of the layer


FIELD_FRAME = """<!doctype html><html><head><meta charset="utf-8"><title>Task</title></head><body>
<div style="cursor:pointer" onclick="document.getElementById('pick').setAttribute('aria-expanded', 'true')">
  <div>Priority</div>
  <div id="pick" role="combobox" aria-label="Priority" tabindex="0" aria-expanded="false">Normal</div>
  <span>arrow_drop_down</span>
</div>
<div style="cursor:pointer" onclick="this.dataset.opened = 1"><span>Open invoice</span>
  <input type="checkbox" aria-label="Select invoice"></div>
</body></html>"""


def test_a_fields_clickable_frame_gets_no_ref_of_its_own_but_a_clickable_row_keeps_one(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/real/field-frame", FIELD_FRAME))
    out = snap(workspace, "-i")
    assert re.search(r'^- combobox "Priority" @e\d+ \[expanded=false\]: "Normal"$', out, re.M), out
    assert "arrow_drop_down" not in out and out.count("@e") == 3, out  # the field, the row, its checkbox


# A data grid as component libraries draw one: every column's header holds the same two buttons.
GRID = """<!doctype html><title>Grid</title>
<table>
  <tr><th><input type="checkbox" aria-label="Select all"></th>
      <th><div><div>city</div><button>Sort column ascending</button><button>Column options</button></div>
      </th>
      <th><div><div>pop</div><button>Sort column ascending</button><button>Column options</button></div>
      </th></tr>
  <tr><td tabindex="0"><input type="checkbox" aria-label="Select row"></td><td tabindex="-1">Lisbon</td>
      <td tabindex="-1">545</td></tr>
  <tr><td tabindex="-1"><input type="checkbox" aria-label="Select row"></td><td tabindex="-1">Oslo</td>
      <td tabindex="-1">709</td></tr>
  <tr><td tabindex="0">Quito <input type="checkbox" aria-label="Pick"></td><td tabindex="-1">Quito</td>
      <td tabindex="-1">709</td></tr>
</table>"""


def test_a_columns_own_buttons_say_their_column(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/real/grid.html", GRID))
    out = snap(workspace, "-i")
    assert re.search(r'- button "Sort column ascending" @e\d+ \(column "city"\)', out), out
    assert re.search(r'- button "Column options" @e\d+ \(column "pop"\)', out), out
    # A row's words are one line above its box; the grid's cells are focusable: a cell of text keeps
    # its ref on that line, one that only wraps the box does not.
    assert re.search(r'- row "Lisbon" @e\d+ · "545" @e\d+\n  - checkbox "Select row" @e\d+\n', out), out
    assert re.search(r'- row "Oslo · 709"\n  - checkbox "Select row" @e\d+\n', out), out  # not focusable
    assert 'cell "Select row"' not in out, out
    assert re.search(r'- row "Quito" @e\d+ · "Quito" @e\d+ · "709" @e\d+\n  - checkbox "Pick"', out), out


CHAT = """<!doctype html><title>Chat</title>
<div role="log" aria-label="conversation">
  <div>user: hello</div><div>bot: The answer is 42. <button>Copy message</button><button>Retry</button></div>
</div>"""


def test_a_chat_logs_line_says_its_messages_not_its_buttons(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/real/chat.html", CHAT))
    out = snap(workspace, "-i")
    assert re.search(r'- log "conversation": "user: hello bot: The answer is 42\."\n', out), out
    assert re.search(r'  - button "Copy message" @e\d+', out), out  # the buttons keep their own lines
