"""Empty documents: `goto` reports them as they are, and does not wait for content that cannot come.

A document with no script and no inline handler (about:blank, a data: URL,
a server's empty page) will never fill, so settling does not wait for
content there; a page whose script fills it later is still waited for. The
daemon runs traced: its log says when settling saw an empty document that
nothing will fill.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

EMPTY_NOTE = "trace: settle: an empty document that nothing will fill"
BLANK_NOTE = "trace: read: a blank document"  # read without Playwright's ai snapshot


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    ws = Workspace(tmp_path_factory.mktemp("traced"))
    ws.env["BROWSE_TRACE"] = "1"
    yield ws
    ws.stop()


def _notes(ws: Workspace, note: str = EMPTY_NOTE) -> int:
    log = ws.state_dir / "daemon.log"
    return log.read_text().count(note) if log.exists() else 0


def _view(printed: str) -> list[str]:
    """The report's first line, then the page's view without its token count."""
    first, _, fenced = printed.partition("\n")
    return [first, *(line for line in strip_fence(fenced).splitlines() if not line.startswith("~"))]


def test_goto_about_blank_reports_the_empty_page(traced: Workspace, site: Site) -> None:
    traced.ok("goto", site.page("/empty/before", "<title>Before</title><h1>Full</h1><button>Go</button>"))
    blank = _notes(traced, BLANK_NOTE)
    printed = traced.ok("goto", "about:blank")
    assert _notes(traced, BLANK_NOTE) > blank
    assert _view(printed) == [
        "Navigated to about:blank",
        'title: ""',
        "page: other · forms: 0",
        "(nothing to show)",
    ]
    assert traced.ok("url").strip() == "about:blank"


@pytest.mark.parametrize("where", ["data", "server"])
def test_goto_an_empty_document_reports_it_and_settles_without_waiting_for_content(
    traced: Workspace, site: Site, where: str
) -> None:
    html = "<title>Nothing here</title><p></p>"
    url = "data:text/html," + html if where == "data" else site.page("/empty/page", html)
    status = "" if where == "data" else " (200)"
    before = _notes(traced)
    printed = traced.ok("goto", url)
    assert _view(printed) == [
        f"Navigated to {url}{status}",
        'title: "Nothing here"',
        "page: other · forms: 0",
        "(nothing to show)",
    ]
    assert _notes(traced) > before


@pytest.mark.parametrize("filler", ["<script>{}</script>", '<body onload="{}"></body>'])
def test_an_empty_page_that_its_script_fills_later_is_still_waited_for(
    traced: Workspace, site: Site, filler: str
) -> None:
    late = "setTimeout(() => document.body.innerHTML = '<h1>Late</h1>', 300)"
    url = site.page(f"/empty/shell{len(filler)}", "<title>Shell</title>" + filler.format(late))
    before = _notes(traced)
    printed = traced.ok("goto", url)
    assert 'heading "Late"' in printed
    assert _notes(traced) == before


def test_an_empty_document_is_reported_the_same_through_a_click(traced: Workspace, site: Site) -> None:
    target = site.page("/empty/target", "<title>Blank target</title>")
    traced.ok("goto", site.page("/empty/link", f'<title>Link</title><a href="{target}">Onward</a>'))
    printed = traced.ok("click", "text=Onward")
    assert printed.splitlines()[0] == "Clicked text=Onward"
    assert "(nothing to show)" in printed and 'title: "Blank target"' in printed


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_body_whose_only_text_is_drawn_by_css_is_not_taken_for_blank(traced: Workspace, where: str) -> None:
    blank = _notes(traced, BLANK_NOTE)
    traced.ok("goto", f"data:text/html,<style>body::{where} {{ content: 'Drawn by CSS' }}</style>")
    assert '- "Drawn by CSS"' in traced.ok("snapshot")
    assert _notes(traced, BLANK_NOTE) == blank
