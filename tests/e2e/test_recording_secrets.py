"""A password typed as a secret is in no recording: HAR, trace and recorded test, searched byte by byte.

A login form posts the password given on stdin; every file the recordings wrote
(and every file under the state folder and the temp folder) is read whole,
zip members unpacked, and searched for the password in its raw, URL-encoded
and JSON-escaped spellings.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import zipfile
from pathlib import Path
from urllib.parse import quote_plus

import pytest

from conftest import FixtureHandler, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PASSWORD = 's3cret+pw&x=1 "q"'  # URL- and JSON-encoding both change it
LOGIN = (
    "<form method=post action=/rs/session><label>Email <input name=email type=email></label>"
    "<label>Password <input name=password type=password></label><button>Sign in</button></form>"
)


def _signed_in(h: FixtureHandler) -> None:
    length = int(h.headers.get("Content-Length") or 0)
    h.rfile.read(length)
    h.reply("<h1>Welcome back</h1>", headers={"Set-Cookie": "sid=session-cookie-value; Path=/"})


def _spellings() -> list[bytes]:
    return [s.encode() for s in (PASSWORD, quote_plus(PASSWORD), json.dumps(PASSWORD)[1:-1])]


def _leaks(path: Path) -> list[str]:
    """Where in `path` (a zip's members too) a spelling of the password is."""
    data = path.read_bytes()
    parts = {str(path): data}
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            parts.update({f"{path}:{name}": archive.read(name) for name in archive.namelist()})
    return [where for where, part in parts.items() for form in _spellings() if form in part]


def test_a_password_from_stdin_is_in_no_har_trace_or_recorded_test(workspace: Workspace, site: Site) -> None:
    ws = workspace  # shared with the next test, which writes its HAR outside recordings/
    site.route("/rs/session", _signed_in)
    url = site.page("/rs/login", LOGIN)
    before = set(os.listdir(tempfile.gettempdir()))
    started = ws.ok("har", "start")
    assert str(ws.state_dir / "recordings") in started
    ws.ok("trace", "start", "--snapshots", "--screenshots")
    ws.ok("record", "start")
    ws.ok("goto", url)
    ws.ok("fill", "input[name=email]", "ada@example.com")
    ws.ok("fill", "input[name=password]", "-", input=PASSWORD + "\n")
    assert "Welcome back" in ws.ok("click", "button")
    har_out = ws.ok("har", "stop", "--json")
    har = Path(json.loads(har_out)["data"]["path"])
    ws.ok("trace", "stop")
    ws.ok("record", "stop")
    assert har.parent == ws.state_dir / "recordings"
    assert stat.S_IMODE(har.stat().st_mode) == 0o600
    entries = json.loads(har.read_text())["log"]["entries"]
    posted = next(e for e in entries if e["request"]["method"] == "POST")
    assert "ada%40example.com" in posted["request"]["postData"]["text"]  # the rest of the body is kept
    assert "session-cookie-value" not in har.read_text()  # cookies go too, without --secrets
    written = [p for p in (ws.state_dir / "recordings").iterdir() if p.is_file()]
    assert len(written) == 3, written  # HAR, trace, test: no scratch file left behind
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in written)
    leaks = [where for p in written for where in _leaks(p)]
    assert not leaks, leaks
    assert not [n for n in set(os.listdir(tempfile.gettempdir())) - before if n.endswith(".har")]


def test_a_har_keeps_cookies_with_secrets_but_never_the_password(workspace: Workspace, site: Site) -> None:
    ws = workspace
    site.route("/rs/session", _signed_in)
    ws.ok("goto", site.page("/rs/login2", LOGIN))
    ws.ok("har", "start", "kept.har", "--secrets")
    ws.ok("fill", "input[name=password]", PASSWORD, "--allow-argv-secret")  # from argv, into a password field
    ws.ok("click", "button")
    ws.ok("goto", site.page("/rs/after", "<p>after</p>"))  # sends the cookie back
    ws.ok("har", "stop")
    har = ws.root / "kept.har"
    assert stat.S_IMODE(har.stat().st_mode) == 0o600
    assert "session-cookie-value" in har.read_text()
    assert not _leaks(har)
