"""`screenshot --baseline`: saved once, then compared; a changed box is named by its element's ref."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import Site, Workspace

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="en"><title>base</title><body style="margin:0"><main>
<h1>Prices</h1><button id="buy" style="width:200px;height:60px">Buy</button>
<p id="clock" style="height:30px">12:00:00</p></main></body></html>"""
PAINT_BUY = "document.querySelector('#buy').style.background = 'red'"
TICK = "document.querySelector('#clock').textContent = '12:00:01'"


@pytest.fixture
def page(workspace: Workspace, site: Site) -> str:
    url = site.page("/baseline/page", PAGE)
    workspace.ok("viewport", "1280x720")
    workspace.ok("goto", url)
    return url


def test_the_first_run_saves_and_an_unchanged_page_says_no_change(workspace: Workspace, page: str) -> None:
    base = workspace.root / "first.png"
    assert workspace.ok("screenshot", "--baseline", str(base)).startswith(f"Saved the baseline {base} (")
    assert base.read_bytes().startswith(b"\x89PNG")
    assert (
        workspace.ok("screenshot", "--baseline", str(base)).strip() == f"No change against {base} (1280x720)"
    )
    assert not (workspace.root / "first.diff.png").exists()


def test_a_page_that_changes_by_one_box_names_it_by_ref(workspace: Workspace, page: str) -> None:
    base = workspace.root / "one-box.png"
    workspace.ok("screenshot", "--baseline", str(base))
    workspace.ok("js", PAINT_BUY)
    out = workspace.ok("screenshot", "--baseline", str(base))
    assert re.match(r"Changed: \d+\.\d\d% of the pixels \(\d+ of 921600\) against ", out), out
    assert f"diff image: {workspace.root / 'one-box.diff.png'}" in out
    boxes = [line for line in out.splitlines() if line.startswith("  ")]
    assert len(boxes) == 1 and re.fullmatch(r"  \d+,\d+ \d+x\d+ @e\d+ button \"Buy\"", boxes[0]), out
    assert (workspace.root / "one-box.diff.png").read_bytes().startswith(b"\x89PNG")
    data = workspace.run("--json", "screenshot", "--baseline", str(base)).json["data"]
    assert isinstance(data, dict) and 0 < float(data["changed"]) < 0.05


def test_masks_hide_moving_parts_and_update_takes_the_new_look(workspace: Workspace, page: str) -> None:
    base = workspace.root / "masked.png"
    workspace.ok("screenshot", "--baseline", str(base), "--mask", "#clock")
    workspace.ok("js", TICK)
    assert workspace.ok("screenshot", "--baseline", str(base), "--mask", "#clock").startswith("No change")
    workspace.ok("js", PAINT_BUY)
    assert workspace.ok("screenshot", "--baseline", str(base), "--mask", "#clock").startswith("Changed: ")
    assert workspace.ok("screenshot", "--baseline", str(base), "--mask", "#clock", "--update").startswith(
        "Updated"
    )
    assert workspace.ok("screenshot", "--baseline", str(base), "--mask", "#clock").startswith("No change")


def test_a_baseline_of_another_size_fails_with_the_way_out(workspace: Workspace, page: str) -> None:
    base = workspace.root / "sized.png"
    workspace.ok("screenshot", "--baseline", str(base), "#buy")
    result = workspace.run("screenshot", "--baseline", str(base))
    assert result.code == 1
    assert "this screenshot is 1280x720: the page or the viewport changed size" in result.err
    assert "--update" in result.err


def test_a_baseline_outside_the_allowed_places_is_refused(workspace: Workspace, page: str) -> None:
    result = workspace.run("screenshot", "--baseline", str(Path.home() / ".ssh" / "x.png"))
    assert result.code != 0 and "refusing to write" in result.err


def test_a_baseline_that_is_not_an_image_fails_with_the_way_out(workspace: Workspace, page: str) -> None:
    bad = workspace.root / "not-a-png.png"
    bad.write_text("not a png")
    result = workspace.run("screenshot", "--baseline", str(bad))
    assert result.code == 1 and f"the baseline {bad} is not an image this can compare against" in result.err
    assert "--update" in result.err
    assert "Updated the baseline" in workspace.ok("screenshot", "--baseline", str(bad), "--update")
