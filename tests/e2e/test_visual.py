"""Screenshots (each mode, right size), PDF, responsive, diff, download and useragent on real pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Site, Workspace, strip_fence
from refbrowse.daemon.services.screenshots import png_size

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

TALL_PAGE = """<title>tall</title><style>body { margin: 0 }
#box { width: 200px; height: 100px; background: red }
#far { margin-top: 2600px; width: 50px; height: 40px; background: blue }</style>
<div id="box"></div><p>tall page</p><div id="far"></div>"""

SHORT_PAGE = "<title>short</title><style>body { margin: 0 }</style><p>short</p>"


def size_of(path: Path) -> tuple[int, int]:
    return png_size(path.read_bytes())


@pytest.fixture(scope="module")
def tall(workspace: Workspace, site: Site) -> str:
    url = site.page("/visual/tall", TALL_PAGE)
    workspace.ok("goto", url)
    return url


def test_viewport_screenshot_has_the_viewport_size(workspace: Workspace, tall: str, tmp_path: Path) -> None:
    out = workspace.ok("screenshot", "--viewport", str(tmp_path / "v.png"))
    assert size_of(tmp_path / "v.png") == (1280, 720)
    assert out.strip() == f"Saved screenshot (1280x720) to {tmp_path / 'v.png'}"


def test_element_screenshot_is_cropped_to_the_element(
    workspace: Workspace, tall: str, tmp_path: Path
) -> None:
    workspace.ok("screenshot", "#box", str(tmp_path / "box.png"))
    assert size_of(tmp_path / "box.png") == (200, 100)
    workspace.ok("screenshot", "#far", str(tmp_path / "far.png"))
    assert size_of(tmp_path / "far.png") == (50, 40)


def test_a_bare_tag_or_tag_selector_is_an_element_as_click_takes_it(
    workspace: Workspace, tall: str, tmp_path: Path
) -> None:
    workspace.ok("screenshot", "p", str(tmp_path / "p.png"))
    width, height = size_of(tmp_path / "p.png")
    assert width == 1280 and 0 < height < 100, "the paragraph, not the page"
    assert "Saved screenshot (50x40) to " in workspace.ok("screenshot", "div#far")


def test_clip_screenshot_is_the_region(workspace: Workspace, tall: str, tmp_path: Path) -> None:
    workspace.ok("screenshot", "--clip", "10,2000,300,150", str(tmp_path / "clip.png"))
    assert size_of(tmp_path / "clip.png") == (300, 150)


def test_a_long_full_page_is_downscaled_and_says_so(workspace: Workspace, tall: str, tmp_path: Path) -> None:
    out = workspace.ok("screenshot", str(tmp_path / "full.png"))
    width, height = size_of(tmp_path / "full.png")
    assert height == 2000 and width < 1280
    assert "downscaled from 1280x" in out and "to fit 2000 px" in out


def test_a_short_full_page_keeps_its_size(workspace: Workspace, site: Site, tmp_path: Path) -> None:
    workspace.ok("goto", site.page("/visual/short", SHORT_PAGE))
    out = workspace.ok("screenshot", str(tmp_path / "short.png"))
    assert size_of(tmp_path / "short.png") == (1280, 720)
    assert "downscaled" not in out


def test_a_relative_path_is_the_callers_and_a_default_path_is_made(workspace: Workspace, tall: str) -> None:
    workspace.ok("goto", tall)
    out = workspace.ok("screenshot", "--viewport", "rel.png")
    assert (workspace.root / "rel.png").exists() and str(workspace.root / "rel.png") in out
    out = workspace.ok("screenshot", "--viewport")
    saved = Path(out.split(" to ", 1)[1].strip())
    assert saved.parent == workspace.root / "screenshots" and size_of(saved) == (1280, 720)


@pytest.mark.parametrize(
    "args",
    [
        ("--viewport", "--clip", "0,0,10,10"),
        ("--viewport", "#box"),
        ("--clip", "0,0,10", "x.png"),
        ("--clip", "0,0,-5,10"),
        ("--sideways",),
    ],
)
def test_conflicting_or_bad_screenshot_flags_are_usage_errors(
    workspace: Workspace, tall: str, args: tuple[str, ...]
) -> None:
    result = workspace.run("screenshot", *args)
    assert result.code == 2, result.err
    assert result.err.startswith("error: ")


def test_screenshot_of_a_missing_element_fails_on_the_page(workspace: Workspace, tall: str) -> None:
    result = workspace.run("screenshot", "#nothing-here")
    assert result.code == 1 and "#nothing-here" in result.err


def test_pdf_starts_with_the_pdf_magic(workspace: Workspace, tall: str, tmp_path: Path) -> None:
    out = workspace.ok("pdf", str(tmp_path / "page.pdf"))
    assert (tmp_path / "page.pdf").read_bytes().startswith(b"%PDF")
    assert out.startswith("Saved PDF (")


def test_responsive_saves_three_sizes_and_restores_the_viewport(
    workspace: Workspace, tall: str, tmp_path: Path
) -> None:
    workspace.ok("responsive", str(tmp_path / "r"))
    assert size_of(tmp_path / "r-mobile.png") == (375, 812)
    assert size_of(tmp_path / "r-tablet.png") == (768, 1024)
    assert size_of(tmp_path / "r-desktop.png") == (1280, 800)
    assert strip_fence(workspace.ok("js", "innerWidth + 'x' + innerHeight")) == "1280x720"


def test_diff_prints_a_unified_diff_of_two_pages(workspace: Workspace, site: Site) -> None:
    first = site.page("/visual/v1", "<p>same line</p><p>old price 10</p>")
    second = site.page("/visual/v2", "<p>same line</p><p>new price 12</p>")
    out = workspace.ok("diff", first, second)
    lines = strip_fence(out).splitlines()
    assert lines[:2] == [f"--- {first}", f"+++ {second}"]
    assert "-old price 10" in lines and "+new price 12" in lines and " same line" in lines
    assert strip_fence(workspace.ok("diff", first, first)) == "(no differences)"
    assert "(no differences)" in workspace.ok("--raw", "diff", first, first)
    assert "<<<" not in workspace.ok("--raw", "diff", first, first)


def test_download_of_a_url_and_of_a_click(workspace: Workspace, site: Site, tmp_path: Path) -> None:
    site.route(
        "/visual/report.csv",
        lambda h: h.reply("a,b\n1,2\n", headers={"Content-Disposition": 'attachment; filename="report.csv"'}),
    )
    page = site.page("/visual/downloads", '<a id="get" href="/visual/report.csv" download>get</a>')
    out = workspace.ok("download", site.url("/visual/report.csv"), str(tmp_path / "by-url.csv"))
    assert (tmp_path / "by-url.csv").read_text() == "a,b\n1,2\n" and "(8 bytes)" in out
    workspace.ok("goto", page)
    out = workspace.ok("download", "#get")
    saved = Path(out.rsplit(" to ", 1)[1].strip())
    assert saved == workspace.state_dir / "downloads" / "report.csv"
    assert saved.read_text() == "a,b\n1,2\n"


def test_useragent_changes_in_place_keeping_storage_and_history(workspace: Workspace, site: Site) -> None:
    seen: list[str] = []

    def echo(handler: object) -> None:
        seen.append(handler.headers.get("User-Agent", ""))  # type: ignore[attr-defined]
        handler.reply("<title>ua</title><p>ua</p>")  # type: ignore[attr-defined]

    first = site.page("/visual/ua-first", "<title>first</title>")
    second = site.route("/visual/ua-second", echo)
    workspace.ok("goto", first)
    workspace.ok("js", "sessionStorage.setItem('kept', 'yes'); document.cookie = 'c=1; path=/'")
    workspace.ok("goto", second)
    workspace.ok("useragent", "RefbrowseTest/1.0")
    assert strip_fence(workspace.ok("js", "navigator.userAgent")) == "RefbrowseTest/1.0"
    assert strip_fence(workspace.ok("js", "sessionStorage.getItem('kept')")) == "yes"
    assert strip_fence(workspace.ok("js", "document.cookie")) == "c=1"
    workspace.ok("reload")
    assert seen[-1] == "RefbrowseTest/1.0"
    assert workspace.ok("back").splitlines()[0] == f"Back → {first}"
    workspace.ok("newtab", second)
    assert seen[-1] == "RefbrowseTest/1.0"
    assert strip_fence(workspace.ok("js", "navigator.userAgent")) == "RefbrowseTest/1.0"
    workspace.ok("closetab")


def test_two_paths_are_a_usage_error(workspace: Workspace, tall: str) -> None:
    result = workspace.run("screenshot", "a.png", "x.png")
    assert result.code == 2 and "takes one path, got two" in result.err and "element first" in result.err


def test_a_high_density_viewport_is_downscaled_and_responsive_keeps_the_scale(
    workspace: Workspace, tall: str, tmp_path: Path
) -> None:
    workspace.ok("goto", tall)
    workspace.ok("viewport", "1280x720", "--scale", "2")
    try:
        out = workspace.ok("screenshot", "--viewport", str(tmp_path / "dense.png"))
        assert size_of(tmp_path / "dense.png") == (2000, 1125)
        assert "downscaled from 2560x1440" in out
        for _ in range(2):  # the second time too: Chromium ignores an override sent again unchanged
            workspace.ok("screenshot", str(tmp_path / "dense-full.png"))
            assert max(size_of(tmp_path / "dense-full.png")) == 2000
        assert strip_fence(workspace.ok("js", "devicePixelRatio")) == "2"
        workspace.ok("responsive", str(tmp_path / "d"))
        assert size_of(tmp_path / "d-mobile.png") == (375, 812)
        assert strip_fence(workspace.ok("js", "devicePixelRatio + ' ' + innerWidth")) == "2 1280"
    finally:
        workspace.ok("viewport", "1280x720", "--scale", "1")
