"""An action's report waits for what the input starts: a typeahead's list that opens a while after typing."""

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
