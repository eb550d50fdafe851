"""Selecting text and copying it with no platform shortcut: selecttext, clipboard copy and paste."""

from __future__ import annotations

import json

import pytest
from tests.conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

# A highlighter as such pages write it: on mouseup it reads the selection and says what it holds.
PAGE = """<!doctype html><title>Highlight</title>
<p id=intro>Highlight the sentence about the <b>brave</b> fox, then copy the price.</p>
<p id=story>The quick brown fox jumps over the <em>lazy</em> dog.
  It lands   softly on the grass.</p>
<table><tr><th>Item</th><th>Price</th></tr><tr><td>Lamp</td><td id=price>42.50 EUR</td></tr></table>
<label>Code <input id=code value="ABC-1234-XYZ"></label>
<label>Notes <textarea id=notes></textarea></label>
<a href="#top" id=link>A link to read</a>
<div id=status role=status></div>
<script>
document.addEventListener('mouseup', () => {
  const text = String(getSelection()).trim();
  if (text) document.getElementById('status').textContent = 'Highlighted: ' + text;
});
document.addEventListener('copy', () => { document.title = 'Copied!'; });
</script>"""


def js(workspace: Workspace, expr: str) -> object:
    out = workspace.ok("--json", "--raw", "js", expr)
    return json.loads(out)["data"]["value"]


@pytest.fixture
def page(workspace: Workspace, site: Site) -> str:
    url = site.page("/select/text.html", PAGE)
    workspace.ok("goto", url)
    return url


def test_selecttext_selects_a_paragraph_as_a_persons_drag_would(workspace: Workspace, page: str) -> None:
    out = workspace.ok("selecttext", "#story")
    assert "Selected 74 characters in #story" in out
    assert 'selected: "The quick brown fox jumps over the lazy dog. It lands softly on the grass."' in out
    assert "Highlighted: The quick brown fox" in out  # the page's mouseup handler saw a selection
    assert js(workspace, "String(getSelection()).replace(/\\s+/g, ' ')") == (
        "The quick brown fox jumps over the lazy dog. It lands softly on the grass."
    )


def test_selecttext_from_to_spans_text_nodes_and_loose_white_space(workspace: Workspace, page: str) -> None:
    out = workspace.ok("selecttext", "#story", "--from", "brown", "--to", "lazy dog")
    assert 'selected: "brown fox jumps over the lazy dog"' in out
    out = workspace.ok("selecttext", "#story", "--from", "LANDS softly", "--to", "grass")
    assert 'selected: "lands softly on the grass"' in out


def test_selecttext_of_a_cell_and_of_part_of_a_fields_value(workspace: Workspace, page: str) -> None:
    assert 'selected: "42.50 EUR"' in workspace.ok("selecttext", "#price")
    out = workspace.ok("selecttext", "#code", "--from", "1234", "--to", "1234")
    assert 'selected: "1234"' in out
    assert js(workspace, "[code.selectionStart, code.selectionEnd]") == [4, 8]


def test_selecttext_inside_a_link_selects_without_following_it(workspace: Workspace, page: str) -> None:
    out = workspace.ok("selecttext", "#link", "--from", "link")
    assert 'selected: "link to read"' in out
    assert js(workspace, "location.hash") == ""


def test_copy_then_paste_needs_no_shortcut(workspace: Workspace, page: str) -> None:
    workspace.ok("selecttext", "#price", "--to", "42.50")
    out = workspace.ok("clipboard", "copy")
    assert "Copied 5 characters to the clipboard" in out and 'copied: "42.50"' in out
    assert js(workspace, "document.title") == "Copied!"  # the page's copy handler ran
    workspace.ok("click", "#notes")
    assert "Pasted 5 characters into textarea#notes" in workspace.ok("clipboard", "paste")
    assert js(workspace, "notes.value") == "42.50"


def test_a_missing_part_says_what_the_element_holds(workspace: Workspace, page: str) -> None:
    result = workspace.run("selecttext", "#story", "--from", "zebra")
    assert result.code == 1
    assert 'no text "zebra"' in result.err and 'its text begins: "The quick brown' in result.err
    result = workspace.run("selecttext", "#story", "--from", "lazy", "--to", "quick")
    assert result.code == 1 and 'no "quick" after "lazy"' in result.err


def test_copy_with_nothing_selected_says_to_select_first(workspace: Workspace, page: str) -> None:
    js(workspace, "getSelection().removeAllRanges()")
    result = workspace.run("clipboard", "copy")
    assert result.code == 1 and "nothing is selected" in result.err and "selecttext" in result.err
