"""`har stop`'s rewrite of Playwright's HAR: entry by entry, so the daemon never holds the file parsed whole.

A file of 3,000 entries (about 6 MB) is rewritten while tracemalloc watches:
parsed whole, the peak was several times the file's size; read in pieces it is
about one piece of the file. The copy is the same HAR less what must go:
credentials, the secrets typed in the session, entries past the limit.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from refbrowse.daemon.services import harrecord
from refbrowse.daemon.services.recording import harstream
from refbrowse.daemon.services.recording.limits import Limits

SECRET = "hunter2-secret"


def _entry(n: int) -> dict[str, Any]:
    return {
        "startedDateTime": "2026-11-29T09:00:00.000Z",
        "time": n * 1.5,
        "request": {
            "method": "POST",
            "url": f"http://127.0.0.1/item?{n}",
            "headers": [{"name": "Cookie", "value": f"sid={n}"}, {"name": "X-N", "value": str(n)}],
            "cookies": [{"name": "sid", "value": str(n)}],
            "postData": {"mimeType": "text/plain", "text": f"password={SECRET}&n={n}"},
        },
        "response": {
            "status": 200,
            "headers": [{"name": "Set-Cookie", "value": "sid=1"}],
            "cookies": [],
            "content": {"size": 2000, "text": "é" + "x" * 1999},
        },
    }


def _har(path: Path, entries: int) -> None:
    log = {
        "version": "1.2",
        "creator": {"name": "Playwright", "version": "1"},
        "pages": [{"id": "page@1", "title": f"login {SECRET}"}],
        "entries": [_entry(n) for n in range(entries)],
        "comment": 7,
    }
    path.write_text(json.dumps({"log": log}, separators=(",", ":")), encoding="utf-8")


def _run(tmp_path: Path, entries: int, credentials: bool = False) -> harrecord._Har:
    limits = Limits(entries=entries, bytes=10**9, seconds=60)
    run = harrecord._Har(str(tmp_path / "out.har"), str(tmp_path / "in.har"), 0.0, credentials, limits, None)  # type: ignore[arg-type] # no browser context: the rewrite reads files only
    return run


def test_the_rewrite_holds_a_piece_of_the_file_not_the_file_parsed(tmp_path: Path) -> None:
    _har(tmp_path / "in.har", 3000)
    size = (tmp_path / "in.har").stat().st_size
    run = _run(tmp_path, 5000)
    tracemalloc.start()
    try:
        written = harrecord._rewrite(run, (SECRET,), str(tmp_path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert written == 3000 and run.recorded == 3000
    assert peak < size / 4, f"peak {peak / 1e6:.1f} MB for a {size / 1e6:.1f} MB file"
    assert len(json.loads((tmp_path / "out.har").read_text())["log"]["entries"]) == 3000


def test_the_copy_is_the_har_without_credentials_secrets_or_entries_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(harstream, "CHUNK", 7)  # values split across pieces everywhere
    _har(tmp_path / "in.har", 12)
    run = _run(tmp_path, 10)
    assert harrecord._rewrite(run, (SECRET,), str(tmp_path)) == 10
    assert run.recorded == 12 and run.cut == "entries"
    text = (tmp_path / "out.har").read_text(encoding="utf-8")
    log = json.loads(text)["log"]
    assert SECRET not in text and "sid=" not in text
    assert [e["request"]["url"] for e in log["entries"]] == [f"http://127.0.0.1/item?{n}" for n in range(10)]
    assert log["entries"][3]["request"]["headers"][1] == {"name": "X-N", "value": "3"}
    assert log["entries"][3]["response"]["content"]["text"] == "é" + "x" * 1999
    assert log["entries"][3]["time"] == 4.5 and log["comment"] == 7 and log["version"] == "1.2"
    assert (
        log["pages"][0]["title"].startswith("login ")
        and (tmp_path / "out.har").stat().st_mode & 0o777 == 0o600
    )


def test_credentials_are_kept_when_asked(tmp_path: Path) -> None:
    _har(tmp_path / "in.har", 2)
    harrecord._rewrite(_run(tmp_path, 10, credentials=True), (), str(tmp_path))
    entry = json.loads((tmp_path / "out.har").read_text())["log"]["entries"][1]
    assert (
        entry["request"]["headers"][0]["value"] == "sid=1" and entry["request"]["cookies"][0]["value"] == "1"
    )


@pytest.mark.parametrize(
    "broken", ['{"log":{"entries":[{"a":1},', '{"log":{"entries":[]}}x', "[1]", '{"log":{1:2}}']
)
def test_a_broken_file_is_an_error_not_a_hang(tmp_path: Path, broken: str) -> None:
    (tmp_path / "in.har").write_text(broken)
    with pytest.raises(ValueError):
        harrecord._rewrite(_run(tmp_path, 10), (), str(tmp_path))
