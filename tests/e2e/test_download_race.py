"""Only the download a `download` command waits for is saved: a second one the page starts with it
is cancelled and its file removed (one stayed behind as a 1 GB artifact)."""

from __future__ import annotations

import time

import pytest
from test_policy import _big, confined

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["confined"]

TWO = """<a id=get href='/race/one.bin' download>get</a><a id=more href='/race/two.bin' download></a>
<script>get.addEventListener('click', () => more.click());</script>"""


def test_a_second_download_during_download_is_cancelled_and_removed(confined: Workspace, site: Site) -> None:
    site.route("/race/one.bin", _big(30 * 1024 * 1024))
    site.route("/race/two.bin", _big(31 * 1024 * 1024))
    confined.ok("goto", site.page("/race", TWO))
    saved = confined.root / "one.bin"
    out = confined.ok("download", "#get", str(saved))
    # Both start in the same click: the command keeps whichever the browser reported first.
    assert saved.stat().st_size in (30 * 1024 * 1024, 31 * 1024 * 1024) and str(saved) in out
    time.sleep(3)
    left = sum(f.stat().st_size for f in (confined.root / "tmp").rglob("*") if f.is_file())
    assert left < 10 * 1024 * 1024, f"{left} bytes of another download stayed on disk"
    assert "cancelled a download" in (confined.state_dir / "daemon.log").read_text()
