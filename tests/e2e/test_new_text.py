"""An action that leaves the controls as they were says the text it brought into view."""

from __future__ import annotations

import pytest
from test_effects import fenced_part
from test_snapshot import ref, snap

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_an_accordion_without_states_says_the_text_it_showed(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports/reveal.html"))
    details = ref(snap(workspace, "-i"), "button", "Details ▼")
    printed = workspace.ok("click", details)
    assert fenced_part(printed) == 'text appeared: "Ships in 3 days."', printed
    closed = workspace.ok("click", details)  # closing it says the text it hid, briefly
    assert fenced_part(closed) == 'text gone: "Ships in 3 days."', closed


def test_much_new_text_is_quoted_a_few_lines_with_the_command_for_the_rest(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/reports/reveal.html"))
    specs = ref(snap(workspace, "-i"), "button", "Specifications")
    printed = workspace.ok("click", specs)
    assert fenced_part(printed).splitlines() == [
        'text appeared: "Weight: 2 kg"',
        'text appeared: "Width: 30 cm"',
        'text appeared: "Height: 20 cm"',
    ], printed
    assert printed.rstrip().endswith("\n… 2 more lines of new text: `browse text`"), printed  # ours: unfenced


def test_a_click_that_changes_nothing_says_so_in_one_line(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/reports/reveal.html"))
    nothing = ref(snap(workspace, "-i"), "button", "Does nothing")
    assert workspace.ok("click", nothing).strip() == f"Clicked {nothing}\nnothing changed on the page"


# Tabs whose panels are a form and a page of prose: switching to the prose hides the form's controls
# and brings none, so the diff alone would say only that the form went.
TABS = """<!doctype html><title>Tabs</title>
<div role="tablist">
  <button role="tab" id="t1" aria-selected="true" aria-controls="p1">Book</button>
  <button role="tab" id="t2" aria-selected="false" aria-controls="p2">About</button>
</div>
<div role="tabpanel" id="p1"><label>Guest <input></label><label>City <input></label></div>
<div role="tabpanel" id="p2" hidden><p>Rooms are held for 24 hours.</p></div>
<script>
for (const tab of document.querySelectorAll('[role=tab]')) tab.onclick = () => {
  for (const other of document.querySelectorAll('[role=tab]')) {
    other.setAttribute('aria-selected', String(other === tab));
    document.getElementById(other.getAttribute('aria-controls')).hidden = other !== tab;
  }
};
</script>"""


def test_a_tab_whose_panel_brings_no_controls_says_its_text(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/reports/tabs.html", TABS))
    about = ref(snap(workspace, "-i"), "tab", "About")
    printed = fenced_part(workspace.ok("click", about))
    assert f'tab "About" {about} [selected]' in printed, printed  # the diff, as before
    assert 'textbox "Guest"' in printed, printed  # …with what went
    assert printed.splitlines()[-1] == 'text appeared: "Rooms are held for 24 hours."', printed


TOTAL = """<!doctype html><title>Total</title><button onclick="document.getElementById('out').innerHTML =
'Selected population: <strong>1254</strong> thousand'">Compute</button>
<p id="out"></p>"""


def test_text_with_an_element_inside_is_quoted_as_one_line(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/reports/total.html", TOTAL))
    compute = ref(snap(workspace, "-i"), "button", "Compute")
    printed = fenced_part(workspace.ok("click", compute))
    assert printed == 'text appeared: "Selected population: 1254 thousand"', printed


# An API console: Execute shows the response with buttons of its own, and a line of prose.
CONSOLE = """<!doctype html><title>Console</title><button onclick="
document.getElementById('out').innerHTML = '<h4>Response body</h4><button>Copy</button>'
  + '<p>Served in 12 ms.</p>'
  + '<pre><code>{&quot;id&quot;: 4, &quot;name&quot;: &quot;Tom&quot;}</code></pre>'">Execute</button>
<div id="out"></div>"""


def test_a_result_in_a_code_block_is_quoted_though_controls_came_with_it(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/reports/console.html", CONSOLE))
    execute = ref(snap(workspace, "-i"), "button", "Execute")
    printed = fenced_part(workspace.ok("click", execute))
    assert '+- button "Copy"' in printed, printed
    assert 'text appeared: "{\\"id\\": 4, \\"name\\": \\"Tom\\"}"' in printed, printed
    assert "Served in" not in printed, printed  # prose that came with new controls is left to them


# Dash's layout: label text right in the container, the callback's output a paragraph beside it.
BESIDE = """<!doctype html><title>Beside</title><div>Temperature
<button onclick="document.getElementById('out').textContent = 'Set to 25 degrees'">Warmer</button>
<p id="out">Set to 20 degrees</p></div>"""


def test_a_paragraph_beside_text_is_a_line_of_its_own(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/reports/beside.html", BESIDE))
    warmer = ref(snap(workspace, "-i"), "button", "Warmer")
    assert (
        fenced_part(workspace.ok("click", warmer))
        == 'text changed: "Set to 20 degrees" → "Set to 25 degrees"'
    )


# Locust's tabs: Failures shows a table whose column headers sort it (controls that came) and whose
# rows are what the agent asked for.
FAILURES = """<!doctype html><title>Runs</title>
<div role="tablist"><button role="tab" aria-selected="true">Statistics</button>
<button role="tab" aria-selected="false" onclick="show()">Failures</button></div><div id="panel"></div>
<script>
function show() {
  document.querySelectorAll('[role=tab]').forEach((t, i) => t.setAttribute('aria-selected', String(i === 1)));
  const rows = [[63, 'GET', '/', "HTTPError('404 Client Error')"], [2, 'POST', '/login', 'ConnectionError']];
  document.getElementById('panel').innerHTML = '<table><thead><tr>'
    + ['# Failures', 'Method', 'Name', 'Message'].map(h => `<th><button>${h}</button></th>`).join('')
    + '</tr></thead><tbody>' + rows.map(r => '<tr>' + r.map(c => `<td>${c}</td>`).join('') + '</tr>').join('')
    + '<tr><td>1</td><td>GET</td><td>/x</td><td><button>Retry</button> Timeout</td></tr></tbody></table>';
}
</script>"""


def test_rows_a_tab_brings_are_quoted_a_line_a_row_with_its_column_headers(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/reports/failures.html", FAILURES))
    failures = ref(snap(workspace, "-i"), "tab", "Failures")
    printed = fenced_part(workspace.ok("click", failures))
    assert '+- button "Method"' in printed, printed  # the controls that came, as before
    assert printed.splitlines()[-3:] == [
        "text appeared: \"63 · GET · / · HTTPError('404 Client Error')\"",
        'text appeared: "2 · POST · /login · ConnectionError"',
        'text appeared: "1 · GET · /x · Timeout"',  # a control's name inside a cell is the view's
    ], printed
    assert "# Failures ·" not in printed, printed  # the header row is its buttons, in the diff


# Locust's Statistics tab: a new view (thirteen sortable columns in place of a form), and its rows.
STATS = """<!doctype html><title>Stats</title>
<div role="tablist"><button role="tab" aria-selected="true">Form</button>
<button role="tab" aria-selected="false" onclick="show()">Statistics</button></div>
<div id="panel"><label>Users <input></label><label>Rate <input></label><label>Host <input></label></div>
<script>
function show() {
  document.querySelectorAll('[role=tab]').forEach((t, i) => t.setAttribute('aria-selected', String(i === 1)));
  const heads = ['Type', 'Name', 'Requests', 'Fails', 'Median', 'p95', 'p99', 'Average', 'Min', 'Max', 'Size',
    'RPS', 'Failures/s'];
  const row = cells => '<tr>' + cells.map(c => `<td>${c}</td>`).join('') + '</tr>';
  document.getElementById('panel').innerHTML = '<table><thead><tr>'
    + heads.map(h => `<th><button>${h}</button></th>`).join('') + '</tr></thead><tbody>'
    + row(['GET', '/', 898, 898, 3, 20, 57, 5.88, 2, 93, 335, 6.8, 6.8])
    + row(['Aggregated', '', 898, 898, 3, 20, 57, 5.88, 2, 93, 335, 6.8, 6.8]) + '</tbody></table>';
}
</script>"""


def test_a_new_view_is_followed_by_the_rows_it_came_with(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/reports/stats.html", STATS))
    stats = ref(snap(workspace, "-i"), "tab", "Statistics")
    printed = fenced_part(workspace.ok("click", stats))
    assert "changed in the interactive view" not in printed and 'button "Failures/s"' in printed, printed
    assert printed.splitlines()[-2:] == [
        'text appeared: "GET · / · 898 · 898 · 3 · 20 · 57 · 5.88 · 2 · 93 · 335 · 6.8 · 6.8"',
        'text appeared: "Aggregated · 898 · 898 · 3 · 20 · 57 · 5.88 · 2 · 93 · 335 · 6.8 · 6.8"',
    ], printed


# MLflow's runs (AG Grid): every row named alike, a selection cell of a checkbox, an icon font's glyph
# and the pin's label, and the run's name a link.
RUNS = """<!doctype html><title>Runs</title><button onclick="show()">Model training</button>
<div id="grid"></div>
<script>
function show() {
  const row = (name, took) => `<div role="row" aria-label="Press SPACE to select this row.">
    <div role="gridcell"><input type="checkbox" aria-label="Select row"><span>\\uf108</span>
      <label>Pin run<input type="checkbox" style="opacity:0;width:1px"></label></div>
    <div role="gridcell">#f792a6 <a href="#${name}">${name}</a></div><div role="gridcell">${took}</div>
    <div role="gridcell"><button>Delete</button></div></div>`;
  document.getElementById('grid').innerHTML = '<div role="grid">' + row('gbm-d8', '125ms')
    + row('gbm-d5', '213ms') + '</div>';
}
</script>"""


def test_a_grid_row_reads_as_its_data_without_its_controls_or_icon_glyphs(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/reports/runs.html", RUNS))
    printed = fenced_part(workspace.ok("click", ref(snap(workspace, "-i"), "button", "Model training")))
    assert printed.splitlines()[-2:] == [
        'text appeared: "#f792a6 gbm-d8 · 125ms"',
        'text appeared: "#f792a6 gbm-d5 · 213ms"',
    ], printed
    # the repeated Delete buttons are told apart by their rows' words, not the name every row has
    assert '(row "#f792a6 gbm-d8")' in printed and "Press SPACE" not in printed, printed
