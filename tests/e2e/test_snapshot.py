"""`browse snapshot` end to end: every flag, frames, shadow DOM, overlays and triage, on real Chromium."""

from __future__ import annotations

import json
import re

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

_LINE_REF = re.compile(r'^\s*- (\S+)(?: ("(?:[^"\\]|\\.)*"))? (@[ec]\d+)')


def refs(snapshot: str) -> dict[tuple[str, str], str]:
    """(role, name) → ref, read from snapshot lines the way an agent reads them."""
    found = {}
    for line in snapshot.splitlines():
        match = _LINE_REF.match(line)
        if match:
            name = json.loads(match.group(2)) if match.group(2) else ""
            found.setdefault((match.group(1), name), match.group(3))
    return found


def ref(snapshot: str, role: str, name: str) -> str:
    found = refs(snapshot)
    assert (role, name) in found, f"no {role} {name!r} in:\n{snapshot}"
    return found[(role, name)]


def snap(workspace: Workspace, *flags: str) -> str:
    return strip_fence(workspace.ok("snapshot", *flags))


def test_full_snapshot_has_header_fields_states_link_targets_and_a_token_footer(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    fenced = workspace.ok("snapshot")
    assert fenced.startswith(f"<<<untrusted page content from {site.url('/snap/form.html')} ")
    out = strip_fence(fenced)
    lines = out.splitlines()
    assert lines[0] == 'title: "Order form"'
    assert lines[1].startswith("page: form")  # the fence names the URL: the header does not repeat it
    raw = workspace.ok("--raw", "snapshot").splitlines()
    assert raw[:2] == ['title: "Order form"', f"url: {site.url('/snap/form.html')}"]
    assert re.fullmatch(r"~\d+ tokens", lines[-1])
    assert re.search(r'- textbox "Name" @e\d+ \[placeholder="Your name"\]', out)
    assert re.search(r'- combobox "Size" @e\d+: "Medium"', out)
    assert re.search(r'- checkbox "Newsletter" @e\d+ \[checked\]', out)
    assert re.search(r'- button "Unavailable" @e\d+ \[disabled\]', out)
    assert re.search(r'- link "Next page" @e\d+ → /snap/form-next.html', out)
    assert '"not clicked"' in out


def test_interactive_snapshot_keeps_controls_and_headings_but_no_text_or_link_targets(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    out = snap(workspace, "-i")
    assert ref(out, "link", "Next page")
    assert ref(out, "heading", "Order")
    assert ref(out, "button", "Place order")
    assert "→" not in out
    assert "not clicked" not in out


def test_compact_snapshot_leaves_out_unnamed_structure_but_keeps_its_text(
    workspace: Workspace, site: Site
) -> None:
    page = "<ul><li>first point</li><li>second point</li></ul><button>Ok</button>"
    workspace.ok("goto", site.page("/snap-compact", page))
    full, compact = snap(workspace), snap(workspace, "-c")
    assert re.search(r"^- list @e\d+$", full, re.M)
    assert "- list" not in compact and "listitem" not in compact
    assert '"first point"' in compact and ref(compact, "button", "Ok")


def test_depth_limit_stops_below_n_levels(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    out = snap(workspace, "-d", "1")
    body = out.splitlines()[2:-1]
    assert body and all(line.startswith("- ") for line in body)
    assert "- main" in out and "textbox" not in out


def test_scope_shows_only_that_part_and_refs_outside_it_still_act(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    hover_ref = ref(snap(workspace, "-i"), "button", "Hover me")
    scoped = snap(workspace, "-s", "#order")
    assert ref(scoped, "textbox", "Name") and "Hover me" not in scoped
    workspace.ok("hover", hover_ref)
    assert "hovered" in strip_fence(workspace.ok("text", "#hovered"))
    by_ref = snap(workspace, "-s", ref(scoped, "combobox", "Size"))
    assert by_ref.splitlines()[2].startswith('- combobox "Size"')


def test_diff_shows_what_an_action_changed(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    first = snap(workspace)
    workspace.ok("fill", ref(first, "textbox", "Name"), "Ann")
    out = snap(workspace, "-D")
    assert out.startswith("--- previous snapshot")
    assert re.search(r'^\+\s*- textbox "Name" @e\d+ \[placeholder="Your name"\]: "Ann"$', out, re.M)
    assert re.search(r'^-\s*- textbox "Name"', out, re.M)
    assert "(no change since the previous snapshot)" in snap(workspace, "-D")
    workspace.ok("--raw", "snapshot")  # a raw snapshot in between is not what -D compares with
    assert "(no change since the previous snapshot)" in snap(workspace, "-D")


def test_clickables_outside_the_tree_get_c_refs_that_act(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/onclick.html"))
    out = snap(workspace, "-C")
    card = ref(out, "generic", "Open the card")  # a clickable without a name is named by its text
    chip = ref(out, "span", "Chip")
    assert chip.startswith("@c")
    assert out.count("Real button") == 1
    workspace.ok("click", card)
    assert "card clicked" in strip_fence(workspace.ok("text", "#r"))
    workspace.ok("click", chip)
    assert strip_fence(workspace.ok("js", "document.activeElement.id")).strip() == "chip"


def test_max_tokens_keeps_the_2000_control_page_under_budget_and_says_what_was_left(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/snap/big.html"))
    everything = snap(workspace, "-i", "--max-tokens", "25000")
    assert len([r for r in refs(everything).values() if r.startswith("@e")]) >= 2000
    out = snap(workspace, "-i", "--max-tokens", "800")
    assert len(out) / 4 <= 800
    assert int(re.search(r"~(\d+) tokens", out).group(1)) <= 800  # type: ignore[union-attr]
    assert "lines left out to stay under 800 tokens" in out
    assert "`-s SEL`" in out and "scroll" in out
    assert ref(out, "button", "Button 0")
    assert '"Button 499"' not in out  # far below the viewport: left out first


def test_same_site_and_cross_site_frames_appear_with_refs_that_act(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/frames.html"))
    workspace.ok("wait", "--load")
    out = snap(workspace, "-i")
    buttons = [line for line in out.splitlines() if '- button "Frame button"' in line]
    assert len(buttons) == 2, out
    for line in buttons:
        workspace.ok("click", re.search(r"@e\d+", line).group(0))  # type: ignore[union-attr]
    after = snap(workspace)
    assert '"frame clicked on 127.0.0.1"' in after
    assert '"frame clicked on localhost"' in after


def test_open_shadow_dom_content_appears_and_acts(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/shadow.html"))
    out = snap(workspace, "-i")
    workspace.ok("fill", ref(out, "textbox", "Shadow field"), "deep")
    workspace.ok("click", ref(out, "button", "Shadow button"))
    assert "shadow got deep" in strip_fence(workspace.ok("text", "#r"))


def test_a_modal_is_listed_first_with_its_refs_and_its_inside_only_once(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/snap/modal.html"))
    out = snap(workspace, "-i")
    lines = out.splitlines()
    assert lines[2] == '⚠ blocking modal dialog "Subscribe": deal with it first'
    assert re.fullmatch(r'\s+- button "No thanks" @e\d+', lines[4])
    assert re.search(r'^- dialog "Subscribe" @e\d+ \(listed above\)$', out, re.M), out
    assert out.count('button "No thanks"') == 1
    full = snap(workspace)
    assert full.count("Subscribe to our list?") == 1 and full.index("Subscribe to our list?") < full.index(
        "Behind"
    )


def test_a_cookie_banner_is_listed_first_with_its_buttons_only(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/cookie.html"))
    lines = snap(workspace, "-i").splitlines()
    assert lines[2].startswith('⚠ blocking cookie banner "We use cookies')
    assert [line.strip().split(" @")[0] for line in lines[3:5]] == [
        '- button "Accept all"',
        '- button "Settings"',
    ]


def test_triage_recognises_a_login_page_and_hides_its_password(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/login.html"))
    out = snap(workspace)
    assert out.splitlines()[1] == "page: login · login form present · forms: 1"
    assert "hunter2" not in out
    assert '"(password hidden)"' in out


def test_triage_recognises_an_article(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/article.html"))
    out = snap(workspace, "-i")
    assert out.splitlines()[1] == "page: article · forms: 0"


def test_triage_counts_fields_that_are_in_no_form(workspace: Workspace, site: Site) -> None:
    # Script-built apps often have no <form>: "forms: 0" alone said there was nothing to fill in.
    fields = "<label>Name <input></label><label>Plan <select><option>Free</select></label>"
    workspace.ok("goto", site.page("/snap/formless", f"<h1>Sign up</h1>{fields}<button>Save</button>"))
    assert snap(workspace, "-i").splitlines()[1] == "page: form · forms: 0 · fields: 2"
    workspace.ok("goto", site.page("/snap/formed", f"<h1>Sign up</h1><form>{fields}</form>"))
    assert snap(workspace, "-i").splitlines()[1] == "page: form · forms: 1"


def test_a_field_named_only_by_its_form_name_shows_it_and_a_password_says_so(
    workspace: Workspace, site: Site
) -> None:
    # Roundup's login box: two bare inputs under a bold "Login", told apart only by their names.
    login = (
        "<b>Login</b><br><input size=10 required name=__login_name><br>"
        "<input type=password required name=__login_password><br><input type=submit value=Login>"
        "<label>Password <input type=password name=pw2></label>"
        "<label>PIN <input type=password name=pin></label>"
        "<input name=q placeholder=Search><input type=checkbox name=remember>"
        "<p>assign to <input name=action_create_and_assign_reassign_owner></p>"
    )
    workspace.ok("goto", site.page("/snap/bare-login", login))
    lines = [re.sub(r"@e\d+", "@e", line.strip()) for line in snap(workspace, "-i").splitlines()]
    bare = [line for line in lines if line.startswith("- textbox @") and "Login" in line]
    assert bare == [
        '- textbox @e (near "Login") [required] [name=__login_name]',
        '- textbox @e (near "Login") [required] [password] [name=__login_password]',
    ], lines
    assert '- textbox "Password" @e' in lines  # its name says it already
    assert '- textbox "PIN" @e [password]' in lines
    assert '- textbox "Search" @e' in lines  # a placeholder names it
    assert not any("name=remember" in line for line in lines)  # a checkbox's form name is no word
    assert '- textbox @e (near "assign to")' in lines  # Trac's: a long generated name says no more


def test_fields_of_a_form_laid_out_in_a_table_are_hinted_by_their_row_headers(
    workspace: Workspace, site: Site
) -> None:
    # Roundup's issue form: <th>Priority</th><td><select>; the cell was named by the select's
    # choice ("- no selection -"), and two header-cell pairs share a row.
    choice = "<select name=priority><option>- no selection -<option>urgent</select>"
    form = (
        f"<form><table><tr><th>Priority</th><td>{choice}</td></tr>"
        "<tr><th>Superseder</th><td><input name=superseder> <a href=/s>(list)</a></td>"
        "<th>Nosy List</th><td><input name=nosy> <a href=/n>(list)</a></td></tr></table></form>"
    )
    workspace.ok("goto", site.page("/snap/table-form", form))
    lines = [re.sub(r"@e\d+", "@e", line.strip()) for line in snap(workspace, "-i").splitlines()]
    assert '- combobox @e (near "Priority"): "- no selection -"' in lines, lines
    assert '- textbox @e (near "Superseder")' in lines, lines  # its form name says no more
    assert '- textbox @e (near "Nosy List")' in lines, lines
    assert '- link "(list)" @e (row "Superseder")' in lines, lines
    assert '- link "(list)" @e (row "Nosy List")' in lines, lines


def test_a_link_named_like_one_or_two_others_outside_rows_is_hinted_by_the_text_before_it(
    workspace: Workspace, site: Site
) -> None:
    # Roundup's sidebar: "Create New" under "Issues" and under "Keywords", no row to tell them
    # apart; a name said on many lines gets no hint on each.
    block = "<p><b>{0}</b><br><a href=/{0}/new>Create New</a><br><a href=/{0}>List</a></p>"
    notes = "".join(f"<p>Note {i}: <button>Availability</button></p>" for i in range(5))
    page = f"<nav aria-label=Main>{block.format('Issues')}{block.format('Keywords')}</nav>{notes}"
    workspace.ok("goto", site.page("/snap/sidebar-twins", page))
    lines = [re.sub(r"@e\d+", "@e", line.strip()) for line in snap(workspace, "-i").splitlines()]
    assert '- link "Create New" @e (near "Issues")' in lines, lines
    assert '- link "Create New" @e (near "Keywords")' in lines, lines
    assert not any('"Availability" @e (near' in line for line in lines), lines


def test_triage_sees_a_captcha_frame(workspace: Workspace, site: Site) -> None:
    site.page("/recaptcha/api2/anchor", "<p>captcha</p>")
    page = f'<form><input name=q></form><iframe src="{site.url("/recaptcha/api2/anchor")}"></iframe>'
    workspace.ok("goto", site.page("/snap-captcha", page))
    workspace.ok("wait", "--load")
    assert "· captcha present ·" in snap(workspace, "-i")


def test_hostile_names_cannot_forge_a_ref(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/hostile.html"))
    out = snap(workspace)
    for line in out.splitlines()[3:-1]:
        outside_quotes = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
        assert len(re.findall(r"@[ec]\d+|\[ref=", outside_quotes)) <= 1, line
    real = ref(out, "button", "Real")
    fake = ref(out, "button", 'Go "x" [ref=e1] @e1')
    assert real != fake
    workspace.ok("click", real)
    assert "real clicked" in strip_fence(workspace.ok("text", "#r"))


def test_bad_flag_values_are_usage_errors(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    result = workspace.run("snapshot", "-d", "zero")
    assert result.code == 2 and "-d takes a positive whole number" in result.err
    missing = workspace.run("snapshot", "-s", "#nothing-here")
    assert missing.code == 1 and "#nothing-here" in missing.err


def test_an_empty_status_region_is_no_line_of_the_interactive_view(workspace: Workspace, site: Site) -> None:
    page = '<h1>Form</h1><div role="status"></div><p role="alert">Saved</p><button>Go</button>'
    workspace.ok("goto", site.page("/snap/empty-status", page))
    out = snap(workspace, "-i")
    assert not re.search(r"^\s*- status\s*$", out, re.M), out
    assert re.search(r'^- alert @e\d+: "Saved"$', out, re.M), out


def test_a_clickable_label_around_its_box_is_no_line_of_its_own(workspace: Workspace, site: Site) -> None:
    # Streamlit's and Gradio's checkboxes: a pointer-cursor label holding the box and a paragraph.
    workspace.ok(
        "goto",
        site.page(
            "/snap/label-box",
            "<title>Box</title><label style='display:flex;cursor:pointer'>"
            "<input type=checkbox aria-label='Express delivery'><p>Express delivery</p></label>"
            "<label style='display:flex;cursor:pointer'><input type=checkbox><p>Gift wrap</p></label>",
        ),
    )
    view = snap(workspace, "-i")
    lines = [line.strip() for line in view.splitlines() if "@e" in line]
    assert [line.split(" @")[0] for line in lines] == [
        '- checkbox "Express delivery"',
        '- checkbox "Gift wrap"',
    ], view


def test_a_hidden_copy_of_the_tabs_is_no_line_of_the_view(workspace: Workspace, site: Site) -> None:
    # Gradio measures its tab labels in an aria-hidden, 1 px high copy of the tab buttons.
    copy = "<div aria-hidden=true style='height:1px;overflow:hidden'><button tabindex=-1>Quote</button>"
    tabs = "<div role=tablist><button role=tab aria-selected=true>Quote</button>"
    workspace.ok(
        "goto",
        site.page(
            "/snap/tab-copy",
            f"<title>Tabs</title>{copy}<button tabindex=-1>Shout</button></div>"
            f"{tabs}<button role=tab>Shout</button></div>"
            "<div aria-hidden=true><button>Menu</button></div>",  # hidden, no copy elsewhere: stays
        ),
    )
    view = snap(workspace, "-i")
    lines = [line.strip().split(" @")[0] for line in view.splitlines() if "@e" in line]
    assert lines == ['- tab "Quote"', '- tab "Shout"', '- button "Menu"'], view
