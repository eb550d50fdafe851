"""Huge pages stay bounded: a 100,000-node page still gives a snapshot, and page text has a default size."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

ROW = (
    "<div class=r><h3>Item {i}</h3><p>Text of item {i} <a href='/item/{i}'>link {i}</a> "
    "<button onclick=\"document.title='bought {i}'\">Buy {i}</button><span>a</span><span>b</span></p></div>"
)


@pytest.fixture(scope="module")
def huge(site: Site) -> str:
    rows = "".join(ROW.format(i=i) for i in range(14_300))  # 7 elements a row: over 100,000
    return site.page("/huge", f"<title>huge</title><main>{rows}</main>")


@pytest.fixture(scope="module")
def on_huge(workspace: Workspace, huge: str) -> Workspace:
    workspace.ok("--timeout", "120000", "goto", huge)
    return workspace


def test_a_100k_node_page_gives_an_interactive_snapshot_with_working_refs(on_huge: Workspace) -> None:
    count = strip_fence(on_huge.ok("js", "document.getElementsByTagName('*').length"))
    assert int(count) > 100_000
    shown = strip_fence(on_huge.ok("snapshot", "-i", "--max-tokens", "2000"))
    lines = shown.splitlines()
    assert "elements" in lines[0] and "in view" in lines[0]
    buy = next(line for line in lines if line.startswith('- button "Buy 0"'))
    assert len(shown) < 2000 * 4
    on_huge.ok("click", buy.split()[-1])
    assert strip_fence(on_huge.ok("js", "document.title")) == "bought 0"


@pytest.mark.parametrize("command", ["text", "html", "links"])
def test_page_text_stops_at_a_default_size_and_says_how_to_get_the_rest(
    on_huge: Workspace, command: str
) -> None:
    out = on_huge.ok(command)
    assert len(out) < 110_000
    note = out.splitlines()[-1]
    assert "characters left out" in note and f"browse {command} --max-chars 0" in note
    assert len(on_huge.ok(command, "--max-chars", "0")) > 300_000
    assert len(strip_fence(on_huge.ok(command, "--max-chars", "500").rsplit("\n…", 1)[0])) <= 500


def test_a_full_snapshot_stops_at_a_default_size(workspace: Workspace, site: Site) -> None:
    paragraphs = "".join(
        f"<p>Paragraph {i} with enough words to be a line of its own.</p>" for i in range(3_000)
    )
    workspace.ok("goto", site.page("/long", f"<title>long</title>{paragraphs}"))
    out = workspace.ok("--timeout", "60000", "snapshot")
    assert len(out) < 110_000
    assert "--max-tokens N` allows more" in out.splitlines()[-1]
    whole = workspace.ok("--timeout", "60000", "snapshot", "--max-tokens", "1000000")
    assert "allows more" not in whole and "Paragraph 2999" in whole
