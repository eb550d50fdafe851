"""`snapshot -a`: an annotated screenshot of the refs, drawn without touching the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Site, Workspace, strip_fence
from refbrowse.daemon.services.screenshots import png_size

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

BUTTONS = """<title>annotate</title><style>body { margin: 20px }</style>
<h1>Pick one</h1><button>First</button> <button>Second</button> <a href="/x">A link</a>
<div style="cursor: pointer" onclick="1">plain clickable</div><input placeholder="name">
<script>
  window.mutations = 0;
  new MutationObserver(list => { window.mutations += list.length; })
    .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
</script>"""


@pytest.fixture(scope="module")
def buttons(workspace: Workspace, site: Site) -> str:
    url = site.page("/visual/annotate", BUTTONS)
    workspace.ok("goto", url)
    return url


def test_annotated_snapshot_saves_a_viewport_png_and_prints_the_snapshot(
    workspace: Workspace, buttons: str, tmp_path: Path
) -> None:
    out = workspace.ok("snapshot", "-i", "-a", "-o", str(tmp_path / "a.png"))
    fenced, saved = out.rstrip("\n").rsplit("\n", 1)
    assert 'button "First"' in strip_fence(fenced) and 'button "Second"' in strip_fence(fenced)
    assert saved.startswith("Saved annotated screenshot, ") and saved.endswith(f"to {tmp_path / 'a.png'}")
    labelled = int(saved.split(", ")[1].split(" refs")[0])
    assert labelled >= 3
    assert png_size((tmp_path / "a.png").read_bytes()) == (1280, 720)


def test_annotation_differs_from_a_plain_screenshot(
    workspace: Workspace, buttons: str, tmp_path: Path
) -> None:
    workspace.ok("snapshot", "-o", str(tmp_path / "drawn.png"))
    workspace.ok("screenshot", "--viewport", str(tmp_path / "plain.png"))
    assert (tmp_path / "drawn.png").read_bytes() != (tmp_path / "plain.png").read_bytes()


def test_annotating_and_screenshots_leave_nothing_in_the_page(workspace: Workspace, buttons: str) -> None:
    before = strip_fence(workspace.ok("js", "document.documentElement.outerHTML"))
    workspace.ok("snapshot", "-C", "-a")
    workspace.ok("screenshot")
    workspace.ok("screenshot", "[placeholder=name]")
    assert strip_fence(workspace.ok("js", "window.mutations")) == "0"
    assert strip_fence(workspace.ok("js", "document.documentElement.outerHTML")) == before
    tabs = strip_fence(workspace.ok("tabs"))
    assert len(tabs.splitlines()) == 1


def test_a_default_path_is_made_and_plain_snapshot_is_unchanged(workspace: Workspace, buttons: str) -> None:
    out = workspace.ok("snapshot", "-a")
    saved = Path(out.rstrip("\n").rsplit(" to ", 1)[1])
    assert saved.parent == workspace.root / "screenshots" and saved.exists()
    plain = workspace.ok("snapshot", "-i")
    assert "annotated" not in plain and plain.rstrip("\n").endswith(">>>")
