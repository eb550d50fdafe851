"""BROWSE_EXTENSIONS: the user's unpacked extensions load in the headless browser, in every session."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser

MANIFEST = """{"manifest_version": 3, "name": "marker", "version": "1.0",
 "content_scripts": [{"matches": ["<all_urls>"], "js": ["mark.js"], "run_at": "document_start"}]}"""


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
    ws.ok("goto", url, BROWSE_EXTENSIONS=f"{good},{bad}")
    probe = "document.documentElement.dataset.ext || 'none'"
    assert strip_fence(ws.ok("js", probe)).strip() == "loaded"
    ws.ok("--session", "other", "goto", url)
    assert strip_fence(ws.ok("--session", "other", "js", probe)).strip() == "loaded"
    log = (ws.state_dir / "daemon.log").read_text()
    assert f"BROWSE_EXTENSIONS: {bad} has no manifest.json; left out" in log
