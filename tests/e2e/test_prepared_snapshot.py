"""Prepared snapshots: the daemon reads a page ahead of `snapshot` and serves that reading only
while the page is unchanged. End to end through `browse`, with `BROWSE_TRACE=1` so that the
daemon's log says which path each snapshot took."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from conftest import FIXTURES, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SERVED = "prepared reading served"
READ_NOW = "page read now"

# The page changes itself when another tab of the same origin says so: no command touches it.
LISTENER = """<!doctype html><title>Listener</title>
<h1>Before</h1>
<label>Note <input id="note"></label>
<label><input type="checkbox" id="done"> Done</label>
<script>
new BroadcastChannel('change').onmessage = e => {
  if (e.data === 'text') document.querySelector('h1').textContent = 'After';
  if (e.data === 'value') document.getElementById('note').value = 'typed by the page';
  if (e.data === 'checked') document.getElementById('done').checked = true;
};
</script>"""
SENDER = "<!doctype html><title>Sender</title><p>sends</p>"


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    ws = Workspace(tmp_path_factory.mktemp("ws"))
    ws.env["BROWSE_TRACE"] = "1"
    yield ws
    ws.stop()


def paths(ws: Workspace) -> list[str]:
    """The path each snapshot took so far, in order."""
    log = (ws.state_dir / "daemon.log").read_text()
    return [line.split("trace: snapshot: ")[1] for line in log.splitlines() if "trace: snapshot: " in line]


def snapshot(ws: Workspace, *flags: str) -> tuple[str, str]:
    """(the snapshot's text, its fence's nonce blanked, and the path it took)."""
    before = len(paths(ws))
    text = re.sub(r"nonce=\w+", "nonce=N", ws.ok("snapshot", *flags))
    taken = paths(ws)
    assert len(taken) == before + 1, taken
    return text, taken[-1]


def test_a_snapshot_after_a_navigation_is_the_prepared_one(traced: Workspace, site: Site) -> None:
    traced.ok("goto", site.page("/prep/plain.html", "<title>Plain</title><button>Go</button>"))
    text, path = snapshot(traced, "-i")
    assert path == SERVED
    assert re.search(r'button "Go" @e\d+', text)


@pytest.mark.parametrize(
    ("change", "shown"),
    [
        ("text", r'heading "After"'),
        ("value", r'textbox "Note" @e\d+: "?typed by the page'),
        ("checked", r'checkbox "Done" @e\d+ \[checked\]'),
    ],
)
def test_a_page_that_changes_itself_after_preparation_is_read_again(
    traced: Workspace, site: Site, change: str, shown: str
) -> None:
    listener = site.page("/prep/listener.html", LISTENER)
    sender = site.page("/prep/sender.html", SENDER)
    traced.ok("goto", listener)
    traced.ok("newtab", sender)
    traced.ok("tab", "1")
    first, _ = snapshot(traced, "-i")  # tab 1 now holds a reading of the page as it is
    assert not re.search(shown, first)
    traced.ok("tab", "2")
    traced.ok("tab", "1")
    _, unchanged = snapshot(traced, "-i")
    assert unchanged == SERVED  # switching tabs alone keeps the reading
    traced.ok("tab", "2")
    traced.ok("js", f"new BroadcastChannel('change').postMessage('{change}')")
    traced.ok("wait", "100")
    switched = traced.ok("tab", "1")  # the switch reads the page as it is now: the change is in its view
    assert re.search(shown, switched), switched
    text, path = snapshot(traced, "-i")
    assert re.search(shown, text), text
    assert path == SERVED  # …and that reading, taken after the change, is what the snapshot serves
    traced.ok("closetab", "2")


FLAGS = [(), ("-i",), ("-c",)]


def _fixture_pages() -> list[str]:
    return sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*.html"))


def snapshots(ws: Workspace, *first: list[str]) -> list[tuple[str, str]]:
    """The snapshot with each of FLAGS, after the steps `first`, in one `chain` (fewer processes for
    92 pages): (each one's text, its fence's nonce blanked, and the path it took)."""
    before = len(paths(ws))
    steps = [*first, *(["snapshot", *flags] for flags in FLAGS)]
    done = json.loads(ws.ok("--json", "chain", input=json.dumps(steps)))["data"]["steps"]
    texts = [re.sub(r"nonce=\w+", "nonce=N", step["output"]) for step in done[len(first) :]]
    taken = paths(ws)
    assert len(taken) == before + len(FLAGS), taken
    return list(zip(texts, taken[before:], strict=True))


def test_prepared_and_fresh_snapshots_are_identical_on_every_fixture(traced: Workspace, site: Site) -> None:
    served = 0
    for page in _fixture_pages():
        traced.ok("goto", site.url(f"/{page}"))
        traced.ok("url")  # waits for the preparation, which holds the tab
        prepared = snapshots(traced)
        if any(path != SERVED for _, path in prepared):
            continue  # frames, or a page that keeps changing: never served, so nothing to compare
        served += 1
        fresh = snapshots(traced, ["js", "0"])  # a command that may change the page: read afresh next
        assert [path for _, path in fresh] == [READ_NOW, SERVED, SERVED], page
        assert [text for text, _ in prepared] == [text for text, _ in fresh], page
    assert served >= len(_fixture_pages()) // 2, served


# Past the size whose arrival view a navigation takes itself, so it is read in the background;
# the first measure of an element (the triage's) keeps the page's thread busy for 3.5 s, past the
# 3 s an early read may take.
SLOW_TO_READ = (
    "<!doctype html><title>Slow</title><h1>A long page</h1><p>Words enough to read.</p><button>Go</button>"
    + "<span></span>" * 10_500
    + """<script>
const measure = Element.prototype.getBoundingClientRect;
let spun = false;
Element.prototype.getBoundingClientRect = function () {
  if (!spun) { spun = true; const end = Date.now() + 3500; while (Date.now() < end); }
  return measure.call(this);
};
</script>"""
)


def test_a_slow_background_reading_is_served_and_never_makes_the_page_look_stuck(
    traced: Workspace, site: Site
) -> None:
    traced.ok("goto", site.page("/prep/slow.html", SLOW_TO_READ))
    text, path = snapshot(traced, "-i")
    assert path == SERVED  # the page was read once, not given up on and read again
    assert re.search(r'button "Go" @e\d+', text)
    traced.ok("goto", site.page("/prep/slow.html?again", SLOW_TO_READ))
    left = traced.run("goto", site.page("/prep/after-slow.html", "<title>Next</title><p>next"))
    assert left.code == 0, left.err
    assert "not answering" not in left.err  # our own reading kept the page busy, not the page
