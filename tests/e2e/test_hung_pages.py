"""Leaving a page that does not answer takes a moment, and reading a big page never throws it away.

A busy loop, a busy cross-site iframe or a `history.pushState` flood used to
make the next `goto` wait 25-40 s and fail; now the page being left is closed
and the new one opens in a fresh tab, with one line saying so. `find` on a
50,000-element page used to outlast its budget and get the tab reset at
about:blank, losing what the agent had typed.
"""

from __future__ import annotations

import re
import threading
import time

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

BUSY = "<title>busy</title><h1>busy</h1><script>setTimeout(() => { while (true) {} }, 300)</script>"
# It says when it starts to spin (a beacon, sent by the browser whatever the script does next).
LATE_BUSY = """<title>late</title><h1>late</h1><script>setTimeout(() => {
  navigator.sendBeacon('/hung/spinning'); while (true) {} }, 3000)</script>"""
FLOOD = """<title>flood</title><script>let i = 0;
setInterval(() => { for (let k = 0; k < 2000; k++) history.pushState({}, '', '?n=' + (i++)); }, 0);
</script>"""
ROW = "<div><h3>Item {i}</h3><p>Text of item {i} <a href='/i/{i}'>link</a> <button>Buy {i}</button></p></div>"


@pytest.fixture(scope="module")
def calm(site: Site) -> str:
    return site.page("/hung/calm", "<title>calm</title><p>calm page</p>")


def _framing(site: Site, name: str, framed_page: str) -> tuple[str, str]:
    """The URLs of `framed_page`, served on another site (so in a renderer of its own), and of a
    page that frames it."""
    framed = site.url(f"/hung/{name}").replace("127.0.0.1", "localhost")
    site.page(f"/hung/{name}", framed_page)
    frame = f"<iframe src='{framed}'></iframe>"
    return framed, site.page(f"/hung/{name}-framed", f"<h1>outer</h1><button>Go</button>{frame}")


def _leave(ws: Workspace, hung: str, calm: str) -> None:
    ws.run("--timeout", "8000", "goto", hung)
    left = ws.run("goto", calm, timeout=60)
    assert left.code == 0, left.err
    assert left.out.startswith("Navigated to " + calm)
    assert "calm page" in ws.ok("text")


def test_leaving_a_busy_loop_is_quick_and_says_so(workspace: Workspace, site: Site, calm: str) -> None:
    workspace.ok("goto", site.page("/hung/soon-busy", "<h1>soon busy</h1>"))
    workspace.ok("js", "setTimeout(() => { while (true) {} }, 100), 'looping soon'")
    time.sleep(1)
    left = workspace.run("goto", calm, timeout=60)
    assert left.code == 0, left.err
    assert "note: the page being left was not answering" in left.err
    assert len(strip_fence(workspace.ok("tabs")).splitlines()) == 1


def test_a_page_with_a_busy_cross_site_frame_answers_and_can_be_left(
    workspace: Workspace, site: Site, calm: str
) -> None:
    framed, outer = _framing(site, "busy", BUSY)
    arrived = workspace.run("goto", outer, timeout=60)
    assert arrived.code == 0, arrived.err
    looked = workspace.run("snapshot", "-i", timeout=60)
    assert looked.code == 0, looked.err
    assert 'button "Go"' in looked.out
    notes = arrived.err + looked.err
    assert f"note: a frame was not answering ({framed}): its renderer was stopped" in notes
    read = workspace.run("text", timeout=60)
    assert read.code == 0 and "outer" in strip_fence(read.out), read.err
    _leave(workspace, outer, calm)


def test_a_frame_that_turns_busy_under_a_read_is_stopped_and_the_read_answers(
    workspace: Workspace, site: Site
) -> None:
    # The goto is over when the frame starts to spin: the snapshot is the command that finds it.
    # Its renderer used to be killed with the frame in it, and one run in a few Playwright then
    # held the whole page for crashed ("Page crashed") and never read it again.
    spinning = threading.Event()
    site.route("/hung/spinning", lambda h: (spinning.set(), h.reply("")))
    framed, outer = _framing(site, "late", LATE_BUSY)
    workspace.ok("goto", outer, timeout=60)
    assert spinning.wait(30), "the frame never started to spin"
    looked = workspace.run("snapshot", "-i", timeout=60)
    assert looked.code == 0, looked.err
    # Its renderer is stopped when the read waits on it (the note says so); a read that got the page
    # without the frame's part has nothing to stop. Either way the read answers and the page acts.
    stopped = f"not answering ({framed}): its renderer was stopped"
    assert "not answering" not in looked.err or stopped in looked.err, looked.err
    go = re.search(r'button "Go" (@e\d+)', looked.out)
    assert go is not None, looked.out
    assert workspace.ok("click", go[1], timeout=60).startswith("Clicked")
    assert "outer" in strip_fence(workspace.ok("text", timeout=60))


def test_a_history_flood_stays_in_its_tab(workspace: Workspace, site: Site, calm: str) -> None:
    _leave(workspace, site.page("/hung/flood", FLOOD), calm)
    assert workspace.run("--session", "other", "goto", calm, timeout=60).code == 0


def test_find_on_a_50k_element_page_keeps_the_page(workspace: Workspace, site: Site) -> None:
    rows = "".join(ROW.format(i=i) for i in range(8_500))
    workspace.ok("--timeout", "120000", "goto", site.page("/hung/big", f"<main>{rows}</main><input id=f>"))
    workspace.ok("fill", "#f", "typed")
    found = strip_fence(workspace.ok("find", "Buy 8498", timeout=120))
    assert "searched its text" in found
    assert '(button "Buy 8498"): "Buy 8498"' in found
    assert strip_fence(workspace.ok("js", "document.querySelector('#f').value")) == "typed"
