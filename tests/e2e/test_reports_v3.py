"""Reports say each thing once and where it stands: a change list's row as one line of its cells' words, the
chosen filter marked, the lines in view first on a page opened at a fragment, prose link clouds folded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_effects import fenced_part

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_a_change_lists_rows_say_their_cells_and_the_chosen_filter_and_page_are_marked(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports4/filters.html")))
    row = r'- row "alice@example.com · True"\n  - checkbox "Select this object for an action - alice" @e\d+\n'
    assert re.search(row + r'  - link "alice" @e\d+\n', view), view
    assert re.search(r'- link "Users" @e\d+ \[current\]', view), view
    assert re.search(r'- link "Yes" @e\d+ \[selected\]', view), view
    assert re.search(r'- link "Groups" @e\d+\n', view) and re.search(r'- link "No" @e\d+\n', view), view
    assert re.search(r'- link "every" @e\d+\n', view), view  # a class every item has chooses none
    # each filter's chosen "All" stays under its own "By …" line, not folded with the others
    assert len(re.findall(r'- link "All" @e\d+ \[selected\]\n', view)) == 3 and "alike" not in view, view


def test_an_articles_prose_links_are_one_line_that_names_each_once_and_their_refs_still_work(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports4/article.html")))
    cloud = re.search(r"- 24 links in the text: (.*)\n", view)
    assert cloud, view
    assert cloud.group(1).count('"sorted()"') == 1 and '"lambdas"' not in cloud.group(1), view
    assert re.search(r'- link "cache\(\)" @e\d+\n', view), view  # a sidebar's list is no prose
    copy = re.search(
        r'- button "Hide the prompts and output" @e\d+ (?:\(row "functools"\) )?\(5 more alike: (@e\d+ ?)+\)',
        view,
    )
    assert copy, view
    named = re.search(r'"min\(\)" (@e\d+)', cloud.group(1))
    assert named
    workspace.ok("click", named.group(1))
    assert workspace.ok("url").strip().endswith("#l01"), view
    every = workspace.ok("snapshot", "-i", "-s", "article")
    assert every.count('- link "min()"') == 4, every  # a scoped view lists them one a line


def test_a_page_opened_at_a_fragment_lists_what_is_in_view_first_then_the_rest_by_distance(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.url("/reports4/fragment.html#target")))
    lines = view.splitlines()
    assert "… in view:" in lines, view
    first = lines.index("… in view:")
    below = next(i for i, line in enumerate(lines) if line.endswith("below the view:"))
    assert any(re.match(r'- link "the link in view" @e\d+$', line) for line in lines[first:below]), view
    above = next(i for i, line in enumerate(lines) if line.endswith("above the view:"))
    assert first < below < above, view  # nearer below comes before farther above
    assert any('"A link far below"' in line for line in lines[below:above]), view
    assert any('"Top link one"' in line for line in lines[above:]), view
    box = re.search(r'checkbox "Remember me" (@e\d+)', view)
    assert box, view
    checked = workspace.ok("check", box.group(1))  # the next action diffs against the page's order
    assert checked.splitlines() == [f"Checked {box.group(1)}: now checked"], checked
    again = workspace.ok("snapshot", "-i")
    assert again.index('"the link in view"') < again.index('"Top link one"'), again


SIGNUP = """<title>Sign up</title><label>Password <input type=password id=a></label>
<label>Confirm <input type=password id=b></label><p id=o></p><script>
for (const f of [a, b]) f.addEventListener('input', () => { o.textContent = `${a.value}|${b.value}`; });
</script>"""


def test_fill_reads_the_texts_given_as_dash_from_a_secret_file(
    workspace: Workspace, site: Site, tmp_path: Path
) -> None:
    view = fenced_part(workspace.ok("goto", site.page("/reports4/signup", SIGNUP)))
    first, second = (re.search(rf'textbox "{name}" (@e\d+)', view) for name in ("Password", "Confirm"))
    assert first and second, view
    secrets = tmp_path / "secrets"
    secrets.write_text("hunter2 pass\nhunter2 pass\n")
    missing = workspace.run(
        "fill", first.group(1), "-", second.group(1), "-", "--secret-file", str(tmp_path / "no")
    )
    assert missing.code == 2 and "--secret-file" in missing.err, missing
    assert strip_fence(workspace.ok("text", "#o")).strip() == ""  # nothing typed: the file was unread
    filled = workspace.ok("fill", first.group(1), "-", second.group(1), "-", "--secret-file", str(secrets))
    assert filled.splitlines()[0].endswith("(12 characters, hidden)"), filled
    assert "hunter2 pass|hunter2 pass" in workspace.ok("text", "#o")


NOTICE = """<title>Draft</title><p id=n>Your draft was saved.</p><p>Other words stay.</p>
<button onclick="n.remove()">Dismiss</button>"""


def test_a_line_of_text_that_went_is_said_gone(workspace: Workspace, site: Site) -> None:
    view = fenced_part(workspace.ok("goto", site.page("/reports4/notice", NOTICE)))
    dismiss = re.search(r'button "Dismiss" (@e\d+)', view)
    assert dismiss, view
    clicked = workspace.ok("click", dismiss.group(1))
    assert 'text gone: "Your draft was saved."' in clicked, clicked
    assert "Other words stay" not in clicked, clicked


THEME = """<title>Settings</title><style>body { background: #fff; color: #000 } .dark { background: #111;
color: #eee }</style><h1>Settings</h1>
<button onclick="document.body.classList.toggle('dark')">Dark theme</button>"""


def test_a_theme_switch_says_the_colour_scheme_changed(workspace: Workspace, site: Site) -> None:
    view = fenced_part(workspace.ok("goto", site.page("/reports4/theme", THEME)))
    button = re.search(r'button "Dark theme" (@e\d+)', view)
    assert button, view
    dark = workspace.ok("click", button.group(1))
    assert "the page's colour scheme changed to dark" in dark, dark
    light = workspace.ok("click", button.group(1))
    assert "the page's colour scheme changed to light" in light, light


PAINTED = """<title>Pick</title><style>.on { background: #000; color: #fff }</style><h1>Pick</h1>
<button style="position: fixed; left: 40%; top: 45%; width: 20%; height: 10%"
 onclick="this.classList.toggle('on')">Pick me</button>"""


def test_a_control_that_turns_dark_is_no_colour_scheme_change(workspace: Workspace, site: Site) -> None:
    view = fenced_part(workspace.ok("goto", site.page("/reports4/painted", PAINTED)))
    button = re.search(r'button "Pick me" (@e\d+)', view)
    assert button, view
    assert "colour scheme" not in workspace.ok("click", button.group(1))


DATES = "".join(
    f'<p>{name}: <input name="d{n}"> <a href="#t{n}">Today</a> | <a href="#c{n}">Choose a date</a></p>'
    for n, name in enumerate(("Last login", "Date joined", "Valid from", "Valid until"))
)
HELP = "Some words of help about this form. " * 40
SPACE = '<div style="height: 2000px"></div>'  # the fields below the view: links in view are never folded
FORM = f"<title>Change user</title><h1>Change user</h1><p>{HELP}</p>{SPACE}{DATES}"


def test_a_fields_shortcut_links_beside_its_label_are_not_folded_as_prose(
    workspace: Workspace, site: Site
) -> None:
    view = fenced_part(workspace.ok("goto", site.page("/reports4/dates", FORM)))
    assert "links in the text" not in view, view
    assert len(re.findall(r'- link "Today" @e\d+', view)) == 4, view


LISTS = """<title>Change user</title><h1>Change user</h1>
<label>Available groups <select multiple id=a><option>auditors</option><option>editors</option></select>
</label>
<label>Chosen groups <select multiple id=c><option>reviewers</option></select></label>
<button onclick="c.add(new Option('testers', 'testers', true, true))">Add another group</button>"""


def test_an_option_that_came_in_one_of_two_lists_says_which(workspace: Workspace, site: Site) -> None:
    view = fenced_part(workspace.ok("goto", site.page("/reports4/lists", LISTS)))
    add = re.search(r'button "Add another group" (@e\d+)', view)
    assert add, view
    added = workspace.ok("click", add.group(1))
    assert re.search(r'in listbox "Chosen groups":\n\+  - option "testers" @e\d+', added), added


MANUAL = (
    "<title>Manual</title><nav><ul>"
    + "".join(f'<li><a href="/p{n}">Chapter {n} of the manual</a></li>' for n in range(150))
    + '</ul></nav><main><div style="height: 2000px"></div><dl><dt id="cache">cache(maxsize=128)</dt><dd>'
    + " ".join(f"<p>Sentence {n} of what the cache does and how its size is chosen.</p>" for n in range(20))
    + "</dd></dl></main>"
)


def test_a_page_opened_at_a_fragment_shares_the_reports_budget_between_passage_and_view(
    workspace: Workspace, site: Site
) -> None:
    report = workspace.ok("goto", site.page("/reports4/manual", MANUAL) + "#cache")
    assert "passage at #cache:\ncache(maxsize=128)\nSentence 0 of" in report, report
    assert 'link "Chapter' in report, report  # the view around it is still there…
    assert len(report) < 4_600, len(report)  # …in what is left of the report's 1,000 tokens


CITIES = (
    "<title>cities</title><form><input aria-label=Filter><button>Apply</button></form>"
    "<table><tr><th>id</th><th>name</th><th>population</th></tr>"
    + "".join(f'<tr><td><a href="/c/{n}">{n}</a></td><td>C{n}</td><td>{n}000</td></tr>' for n in range(30))
    + '</table><a href="?page=2">Next page</a>'
)


def test_an_arrival_view_shows_a_long_tables_first_rows_and_says_the_rest(
    workspace: Workspace, site: Site
) -> None:
    view = workspace.ok("goto", site.page("/reports4/cities", CITIES))
    assert re.search(r'- link "4" @e\d+', view) and 'link "5"' not in view, view
    assert "… 25 more table rows (30 in all): `browse tables` reads them" in view, view
    assert re.search(r'- link "Next page" @e\d+', view) and 'button "Apply"' in view, view
    assert workspace.ok("snapshot", "-i").count('- link "') == 31  # every row's link, and the next page's
