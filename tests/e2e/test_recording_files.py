"""Recordings on disk: written by the daemon, never by the driver to a path checked long before (a
symlink or a swapped folder planted between start and stop gets nothing), and bounded: a HAR, a
profile and a video stop at their limits (requests, bytes, time) and say what they left out."""

from __future__ import annotations

import json
import shutil
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import Result, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

ENTRIES = 50
ANIMATED = """<h1>Busy</h1><div id=box style="width:600px;height:400px"></div><script>
let n = 0;
(function paint() {
  const box = document.getElementById('box');
  box.style.background = `hsl(${n++ % 360}, 80%, 50%)`;
  box.textContent = Math.random().toString(36).repeat(20);
  requestAnimationFrame(paint);
})();
</script>"""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """A workspace whose recordings have small limits: 50 requests, 1 MB."""
    ws = Workspace(tmp_path_factory.mktemp("reclimits"))
    ws.env.update(BROWSE_HAR_MAX_ENTRIES=str(ENTRIES), BROWSE_RECORDING_MAX_MB="1")
    yield ws
    ws.stop()


@pytest.fixture(scope="module")
def pages(small: Workspace, site: Site) -> Site:
    site.route("/rf/item", lambda h: h.reply("ok", headers={"Content-Type": "text/plain"}))
    site.route("/rf/big", lambda h: h.reply("x" * 400_000, headers={"Content-Type": "text/plain"}))
    site.route("/rf/unsized", _unsized)
    site.page("/rf/page", "<h1>Recorded</h1>")
    site.page("/rf/animated", ANIMATED)
    return site


def _fetches(ws: Workspace, path: str, count: int) -> Result:
    """`count` fetches of `path`, ten at a time."""
    each = f"(_, i) => fetch('{path}?' + b + '-' + i).then(r => r.text())"
    batch = f"[...Array(Math.min(10, {count} - b))].map({each})"
    return ws.run(
        "js",
        f"(async () => {{ for (let b = 0; b < {count}; b += 10) await Promise.all({batch}); return 1 }})()",
    )


def _entries(path: Path) -> list[dict[str, object]]:
    entries = json.loads(path.read_text())["log"]["entries"]
    assert isinstance(entries, list)
    return entries


def test_a_har_stops_at_its_request_limit_and_says_how_many_it_left_out(
    small: Workspace, pages: Site
) -> None:
    small.ok("goto", pages.url("/rf/page"))
    small.ok("har", "start", "many.har")
    fetched, status = _fetches(small, "/rf/item", 400), small.run("status")
    assert "(stopped at its limit of 50 requests (BROWSE_HAR_MAX_ENTRIES))" in status.out
    stopped = small.run("har", "stop")
    assert stopped.code == 0, stopped.err
    note = "reached its limit of 50 requests (BROWSE_HAR_MAX_ENTRIES) and stopped"
    assert note in fetched.err + status.err + stopped.err
    said = stopped.out.split("limit of 50 requests (BROWSE_HAR_MAX_ENTRIES): ")[1]
    left_out = int(said.split()[0].replace(",", ""))
    entries = _entries(small.root / "many.har")
    assert len(entries) == ENTRIES and left_out == 400 - ENTRIES, (len(entries), said)
    assert (small.root / "many.har").stat().st_mode & 0o777 == 0o600


def test_a_har_stops_at_its_byte_limit(small: Workspace, pages: Site) -> None:
    small.ok("goto", pages.url("/rf/page"))
    small.ok("har", "start", "big.har")
    for _ in range(4):  # 400 kB each, one after the other: the third passes 1 MB
        _fetches(small, "/rf/big", 1)
    out = small.ok("har", "stop")
    assert "limit of 1 MB (BROWSE_RECORDING_MAX_MB)" in out, out
    assert len(_entries(small.root / "big.har")) <= 4
    assert (small.root / "big.har").stat().st_size < 3_000_000


def test_bodies_without_a_content_length_count_toward_the_byte_limit(small: Workspace, pages: Site) -> None:
    small.ok("goto", pages.url("/rf/page"))
    small.ok("har", "start", "unsized.har")
    for _ in range(4):  # 400 kB each, ended by the connection's close: the third passes 1 MB
        _fetches(small, "/rf/unsized", 1)
    out = small.ok("har", "stop")
    assert "limit of 1 MB (BROWSE_RECORDING_MAX_MB)" in out, out
    assert len(_entries(small.root / "unsized.har")) <= 4


def _unsized(h: Any) -> None:
    """400 kB with no Content-Length: the body ends when the connection closes (HTTP/1.0)."""
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.end_headers()
    h.wfile.write(b"x" * 400_000)


def test_a_har_and_a_trace_stop_at_their_time_limit(fresh_workspace: Workspace, pages: Site) -> None:
    fresh_workspace.env["BROWSE_RECORDING_MAX_S"] = "2"
    fresh_workspace.ok("goto", pages.url("/rf/page"))
    fresh_workspace.ok("har", "start", "slow.har")
    fresh_workspace.ok("trace", "start")
    time.sleep(3)
    _fetches(fresh_workspace, "/rf/item", 3)
    out = fresh_workspace.ok("har", "stop")
    assert "limit of 2 s (BROWSE_RECORDING_MAX_S): 3 later requests were not recorded" in out, out
    assert not any("rf/item" in json.dumps(e) for e in _entries(fresh_workspace.root / "slow.har"))
    out = fresh_workspace.ok("trace", "stop", "slow.zip")
    said = "the trace stopped at its limit of 2 s (BROWSE_RECORDING_MAX_S): what came after was not recorded"
    assert said in out, out
    with zipfile.ZipFile(fresh_workspace.root / "slow.zip") as zipped:
        assert not any(b"rf/item" in zipped.read(name) for name in zipped.namelist())


def test_a_trace_stops_at_its_byte_limit(small: Workspace, pages: Site) -> None:
    small.ok("goto", pages.url("/rf/animated"))
    small.ok("trace", "start", "--screenshots", "--snapshots")
    deadline = time.monotonic() + 60
    while "trace (stopped at its limit" not in (status := small.ok("status")) and time.monotonic() < deadline:
        small.ok("goto", pages.url("/rf/animated"))  # every load adds snapshots and screenshots
    assert "trace (stopped at its limit of 1 MB (BROWSE_RECORDING_MAX_MB))" in status, status
    out = small.ok("trace", "stop", "long.zip")
    assert "the trace stopped at its limit of 1 MB (BROWSE_RECORDING_MAX_MB)" in out, out
    assert (small.root / "long.zip").stat().st_size < 4_000_000


def test_a_long_profile_of_a_busy_page_keeps_to_its_buffer(small: Workspace, pages: Site) -> None:
    small.ok("goto", pages.url("/rf/animated"))
    small.ok("profile", "start")
    time.sleep(6)
    out = small.ok("profile", "stop", "busy.json")
    path = small.root / "busy.json"
    events = json.loads(path.read_text())["traceEvents"]
    assert len(events) > 100 and path.stat().st_size < 6_000_000, (len(events), path.stat().st_size)
    assert "trace buffer filled (1 MB (BROWSE_RECORDING_MAX_MB)): what came after was left out" in out, out
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg (apt-get install ffmpeg)")
def test_a_video_keeps_to_its_byte_limit(small: Workspace, pages: Site) -> None:
    small.ok("goto", pages.url("/rf/animated"))
    small.ok("video", "start")
    time.sleep(5)
    out = small.ok("video", "stop", "busy.webm")
    assert "recording stopped at its limit of 1 MB (BROWSE_RECORDING_MAX_MB): the video ends there" in out, (
        out
    )
    assert (small.root / "busy.webm").stat().st_size > 0


# written by the daemon at stop, through the path policy's writer


def test_a_har_path_turned_into_a_symlink_before_stop_writes_nothing_through_it(
    small: Workspace, pages: Site, tmp_path: Path
) -> None:
    canary = tmp_path / "canary.txt"
    canary.write_text("canary\n")
    small.ok("goto", pages.url("/rf/page"))
    small.ok("har", "start", "planted.har")
    small.ok("goto", pages.url("/rf/page?again"))
    (small.root / "planted.har").symlink_to(canary)
    result = small.run("har", "stop")
    assert result.code == 2 and "it is a symlink" in result.err and "it is kept as" in result.err, result.err
    assert canary.read_text() == "canary\n"
    kept = Path(result.err.split("it is kept as ")[1].split()[0])
    assert kept.parent == small.state_dir / "recordings" and kept.stat().st_mode & 0o777 == 0o600
    assert any("rf/page" in json.dumps(e) for e in _entries(kept))


def test_a_folder_swapped_for_a_symlink_before_stop_gets_no_recording_outside(
    small: Workspace, pages: Site, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = small.root / "swap"
    folder.mkdir()
    small.ok("goto", pages.url("/rf/page"))
    small.ok("har", "start", "swap/x.har")
    small.ok("goto", pages.url("/rf/page?swapped"))
    shutil.rmtree(folder)
    folder.symlink_to(outside)
    result = small.run("har", "stop")
    assert result.code == 2 and "is a symlink" in result.err and "it is kept as" in result.err, result.err
    assert list(outside.iterdir()) == []
