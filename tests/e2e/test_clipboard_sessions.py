"""Each session's clipboard is its own: Chromium has one for all its contexts.

What the agent writes, copies or a page of one session puts on the clipboard is
never read by another session's `clipboard read`, pasted by its `clipboard paste`
or `press Control+V`, nor found by its pages polling `navigator.clipboard`, even
where that session granted `clipboard-read`. Our commands grant `clipboard-read`
for their own moment only, so a page polling the clipboard gets nothing and does
not keep `goto` waiting on its fetches.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from urllib.parse import unquote

import pytest

from conftest import FixtureHandler, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SECRET = "CLIP-SECRET-A-7731"
FIELD = """<!doctype html><title>field</title><p id=words>Words to copy: COPIED-IN-A-5150</p>
<textarea id=box></textarea>
<button id=copy onclick="navigator.clipboard.writeText('WRITTEN-BY-PAGE-A-88')">Copy</button>
<button id=legacy onclick="const r = document.createRange(); r.selectNodeContents(words);
getSelection().removeAllRanges(); getSelection().addRange(r); document.execCommand('copy')">Legacy</button>"""
# Reads the clipboard every 100 ms and sends what it got to its server, as a page stealing it would.
POLL = """<!doctype html><title>poll</title><script>
setInterval(async () => {
  try { fetch('/clip/log?t=' + encodeURIComponent(await navigator.clipboard.readText())) } catch (e) {}
}, 100)</script>"""


@pytest.fixture
def seen(site: Site) -> Iterator[list[str]]:
    got: list[str] = []

    def log(h: FixtureHandler) -> None:
        got.append(unquote(h.path.partition("t=")[2]))
        h.reply("ok")

    site.route("/clip/log", log)
    site.page("/clip/field", FIELD)
    site.page("/clip/poll", POLL)
    yield got


@pytest.fixture(scope="module")
def clipboards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """One daemon for the module. Each test writes and copies the same words in the default
    session and asserts they reach no other session and no page: what an earlier test left on the
    default session's clipboard, or a polling page it left open, is held to the same checks."""
    ws = Workspace(tmp_path_factory.mktemp("ws"))
    yield ws
    ws.stop()


def value(ws: Workspace, expr: str, session: str = "default") -> object:
    return json.loads(ws.ok("--session", session, "--json", "--raw", "js", expr))["data"]["value"]


def box(ws: Workspace, session: str) -> object:
    return value(ws, "document.getElementById('box').value", session)


def paste_both_ways(ws: Workspace, session: str) -> tuple[object, object]:
    """What `clipboard paste` and `press Control+V` put into the session's empty text box."""
    got = []
    for how in (("clipboard", "paste"), ("press", "Control+V")):
        value(ws, "document.getElementById('box').value = ''", session)
        ws.ok("--session", session, "click", "#box")
        ws.ok("--session", session, *how)
        got.append(box(ws, session))
    return got[0], got[1]


def test_what_one_session_writes_no_other_session_reads_or_pastes(
    clipboards: Workspace, site: Site, seen: list[str]
) -> None:
    ws = clipboards
    for session in ("default", "other"):
        ws.ok("--session", session, "goto", site.url("/clip/field"))
    ws.ok("clipboard", "write", SECRET)
    assert SECRET not in ws.ok("--session", "other", "clipboard", "read")
    assert paste_both_ways(ws, "other") == ("", "")
    assert SECRET in ws.ok("clipboard", "read")
    assert paste_both_ways(ws, "default") == (SECRET, SECRET)


def test_what_a_session_copies_or_its_page_writes_stays_in_it(
    clipboards: Workspace, site: Site, seen: list[str]
) -> None:
    ws = clipboards
    for session in ("default", "other"):
        ws.ok("--session", session, "goto", site.url("/clip/field"))
    ws.ok("selecttext", "#words", "--from", "COPIED", "--to", "5150")
    assert "COPIED-IN-A-5150" in ws.ok("clipboard", "copy")
    assert "COPIED-IN-A" not in ws.ok("--session", "other", "clipboard", "read")
    assert paste_both_ways(ws, "other") == ("", "")
    ws.ok("click", "#copy")
    assert "WRITTEN-BY-PAGE-A-88" in ws.ok("clipboard", "read")
    assert "WRITTEN-BY-PAGE-A-88" not in ws.ok("--session", "other", "clipboard", "read")
    assert paste_both_ways(ws, "default") == ("WRITTEN-BY-PAGE-A-88", "WRITTEN-BY-PAGE-A-88")
    # a shortcut made of keys held down: the same clipboard as `press`'s
    ws.ok("selecttext", "#words", "--from", "COPIED", "--to", "5150")
    for step in (("keydown", "Control"), ("keydown", "c"), ("keyup", "c"), ("keyup", "Control")):
        ws.ok(*step)
    assert "COPIED-IN-A-5150" in ws.ok("clipboard", "read")
    assert keydown_paste(ws, "other") == ""
    ws.ok("click", "#legacy")  # the page copies by itself (document.execCommand)
    assert "Words to copy: COPIED-IN-A-5150" in ws.ok("clipboard", "read")
    assert keydown_paste(ws, "other") == ""
    assert keydown_paste(ws, "default") == "Words to copy: COPIED-IN-A-5150"
    # letters typed while `keydown` holds Control: the same clipboard as the chord's
    ws.ok("fill", "#box", "TYPED-COPY-31")
    for step in (("keydown", "Control"), ("type", "#box", "ac"), ("keyup", "Control")):
        ws.ok(*step)
    assert "TYPED-COPY-31" in ws.ok("clipboard", "read")
    assert keydown_paste(ws, "other") == ""
    assert keydown_paste(ws, "other", typed=True) == ""
    assert keydown_paste(ws, "default", typed=True) == "TYPED-COPY-31"


def test_a_page_of_another_session_polling_the_clipboard_gets_nothing(
    clipboards: Workspace, site: Site, seen: list[str]
) -> None:
    ws = clipboards
    ws.ok("--session", "other", "permissions", "grant", "clipboard-read")  # even so
    ws.ok("--session", "other", "goto", site.url("/clip/poll"))
    ws.ok("goto", site.url("/clip/field"))
    ws.ok("clipboard", "write", SECRET)
    ws.ok("click", "#box")
    ws.ok("clipboard", "paste")
    ws.ok("press", "Control+V")
    ws.ok("selecttext", "#words", "--from", "COPIED", "--to", "5150")
    ws.ok("clipboard", "copy")
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:  # the page polls every 100 ms: give it twenty tries more
        ws.ok("clipboard", "read")
    assert seen, "the polling page never read the clipboard: the test proves nothing"
    assert not [got for got in seen if SECRET in got or "COPIED-IN-A" in got]


def test_clipboard_read_is_granted_only_while_our_command_runs(
    clipboards: Workspace, site: Site, seen: list[str]
) -> None:
    ws = clipboards
    ws.ok("goto", site.url("/clip/field"))
    ws.ok("clipboard", "write", SECRET)
    ws.ok("clipboard", "read")
    ws.ok("selecttext", "#words")
    ws.ok("clipboard", "copy")
    state = "navigator.permissions.query({name: 'clipboard-read'}).then(s => s.state)"
    assert value(ws, state) != "granted"
    ws.ok("goto", site.url("/clip/poll"))  # a page polling the clipboard in the same session
    time.sleep(1)
    assert not [got for got in seen if SECRET in got or "Words to copy" in got]


def test_a_page_polling_the_clipboard_does_not_hold_goto_to_the_cap(
    clipboards: Workspace, site: Site, seen: list[str]
) -> None:
    ws = clipboards
    ws.ok("goto", site.url("/clip/field"))
    ws.ok("clipboard", "write", SECRET)
    out = ws.ok("goto", site.url("/clip/poll"))
    assert "(the cap)" not in out
    assert not [got for got in seen if SECRET in got]


def keydown_paste(ws: Workspace, session: str, typed: bool = False) -> object:
    """What Control held by `keydown` and then V (`keydown v`, or `typed`: `type v`) pastes into the
    session's empty text box."""
    value(ws, "document.getElementById('box').value = ''", session)
    ws.ok("--session", session, "click", "#box")
    keys = [("type", "v")] if typed else [("keydown", "v"), ("keyup", "v")]
    for step in (("keydown", "Control"), *keys, ("keyup", "Control")):
        ws.ok("--session", session, *step)
    return box(ws, session)
