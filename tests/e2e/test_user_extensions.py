"""BROWSE_EXTENSIONS: the user's unpacked extensions load in the headless and the headed browser, in every
session; another value restarts the daemon with it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser

MANIFEST = """{"manifest_version": 3, "name": "marker", "version": "1.0",
 "content_scripts": [{"matches": ["<all_urls>"], "js": ["mark.js"], "run_at": "document_start"}]}"""


PROBE = "document.documentElement.dataset.ext || 'none'"


def extension(root: Path) -> Path:
    folder = root / "marker-ext"
    folder.mkdir()
    (folder / "manifest.json").write_text(MANIFEST)
    (folder / "mark.js").write_text("document.documentElement.dataset.ext = 'loaded';")
    return folder


def test_an_unpacked_extension_runs_in_every_session_and_a_bad_folder_is_left_out(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    url = site.page("/ext/page", "<title>ext</title><p>x</p>")
    good, bad = extension(ws.root), ws.root / "no-manifest"
    bad.mkdir()
    ws.env["BROWSE_EXTENSIONS"] = f"{good},{bad}"  # every command: another value restarts the daemon
    ws.ok("goto", url)
    assert strip_fence(ws.ok("js", PROBE)).strip() == "loaded"
    ws.ok("--session", "other", "goto", url)
    assert strip_fence(ws.ok("--session", "other", "js", PROBE)).strip() == "loaded"
    log = (ws.state_dir / "daemon.log").read_text()
    assert f"BROWSE_EXTENSIONS: {bad} has no manifest.json; left out" in log


@pytest.mark.skipif(
    shutil.which("Xvfb") is None,
    reason="no Xvfb: a headed browser needs the daemon's private display (`make xvfb` installs it)",
)
def test_an_unpacked_extension_runs_in_the_headed_browser_and_leaves_with_its_setting(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    ws.env.pop("DISPLAY", None)  # the daemon's own Xvfb, as on a machine without a screen
    ws.env.pop("WAYLAND_DISPLAY", None)
    ws.env["BROWSE_HEADED"] = "1"
    url = site.page("/ext/headed", "<title>ext</title><p>x</p>")
    folder = extension(ws.root)
    ws.ok("goto", url, BROWSE_EXTENSIONS=str(folder))
    status = ws.ok("status", BROWSE_EXTENSIONS=str(folder))
    assert "mode: headed" in status and "a private Xvfb" in status
    assert strip_fence(ws.ok("js", PROBE, BROWSE_EXTENSIONS=str(folder))).strip() == "loaded"
    ws.ok("--session", "other", "goto", url, BROWSE_EXTENSIONS=str(folder))
    seen = ws.ok("--session", "other", "js", PROBE, BROWSE_EXTENSIONS=str(folder))
    assert strip_fence(seen).strip() == "loaded"
    # Without the setting the next command restarts the daemon, saying why, and the pages go without it.
    without = ws.run("goto", url)
    assert f"restarting the daemon: BROWSE_EXTENSIONS=(unset) here, {folder} there" in without.err
    assert strip_fence(ws.ok("js", PROBE)).strip() == "none"
    assert "mode: headed" in ws.ok("status")
