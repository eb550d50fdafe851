"""An action's report waits for what the input starts (a typeahead's late list) and says what it left open."""

from __future__ import annotations

import json
import re
import time

import pytest
from tests.conftest import FixtureHandler, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _colours(handler: FixtureHandler) -> None:
    time.sleep(0.5)  # a server that takes its time
    body = json.dumps(["Red", "Rose", "Ruby", "Blue"]).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@pytest.fixture
def typeaheads(workspace: Workspace, site: Site) -> None:
    site.route("/input/colours", _colours)
    workspace.ok("goto", site.url("/input/typeaheads.html"))


def _options(out: str) -> list[str]:
    return re.findall(r'option "([^"]+)" @e\d+', out)


def test_a_list_a_frameworks_scheduler_opens_after_typing_is_in_the_report(
    workspace: Workspace, typeaheads: None
) -> None:
    assert _options(workspace.ok("type", "#fruit", "ap")) == ["Apple", "Apricot"]


def test_a_list_an_interval_debounce_opens_is_in_the_report(workspace: Workspace, typeaheads: None) -> None:
    assert _options(workspace.ok("type", "#city", "par")) == ["Paris", "Parma"]


def test_a_list_that_opens_after_a_debounce_and_a_slow_search_is_in_the_report(
    workspace: Workspace, typeaheads: None
) -> None:
    assert _options(workspace.ok("fill", "#colour", "r")) == ["Red", "Rose", "Ruby"]


def test_a_picker_left_open_after_a_pick_is_said_with_how_to_close_it(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/input/picker.html"))
    opened = workspace.ok("fill", "#arrival", "2024-06-01")
    assert 'open now: a calendar "June 2024" over the page' in opened and "press Escape" in opened
    picked = workspace.ok("click", "#calendar [data-day='12']")
    assert 'still open: a calendar "June 2024" over the page' in picked
    assert "close it with `browse press Escape` or a click outside it" in picked
    escaped = workspace.ok("press", "Escape")
    assert 'still open: a calendar "June 2024"; to close it, click outside it' in escaped
    assert "still open" not in workspace.ok("click", "h1")
    assert "Booked 2024-06-12" in workspace.ok("click", "#submit")


def test_a_menu_that_is_part_of_the_page_is_never_said_open(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/picker.html"))  # its side menu floats, fixed, from the start
    for _ in range(2):
        out = workspace.ok("click", "#submit")
        assert "open now" not in out and "still open" not in out


def test_a_popover_panel_left_open_is_said_as_a_panel_not_a_list(workspace: Workspace, site: Site) -> None:
    # Streamlit's colour picker: a non-modal dialog with a hex field, open under its button
    url = site.page(
        "/late/colour.html",
        '<h1>Colour</h1><button onclick="p.hidden = false">Ribbon colour</button>'
        "<div id=p role=dialog aria-label='Ribbon colour picker' hidden style='position:absolute;top:60px;"
        "left:10px;width:220px;height:120px;background:#fff;border:1px solid'><input aria-label=hex></div>",
    )
    workspace.ok("goto", url)
    workspace.ok("click", "text=Ribbon colour")
    filled = workspace.ok("fill", "role=textbox[name='hex']", "#00FF00")
    assert 'still open: a panel "Ribbon colour picker" over the page' in filled, filled
