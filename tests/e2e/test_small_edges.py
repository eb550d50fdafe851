"""Small edges that used to end in "internal error", a wrong exit code or a wrong reading of an argument."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture(scope="module")
def plain(workspace: Workspace, site: Site) -> str:
    url = site.page("/edges/plain", "<h1>plain</h1><input type=file id=f>")
    workspace.ok("goto", url)
    return url


def test_a_path_starting_with_dots_is_a_screenshot_path(workspace: Workspace, plain: str) -> None:
    (workspace.root / "shots").mkdir(exist_ok=True)
    out = workspace.ok("screenshot", "./shots/../shots/x.png")
    assert "Saved screenshot" in out and (workspace.root / "shots" / "x.png").is_file()


@pytest.mark.parametrize("command", [("screenshot",), ("pdf",), ("snapshot", "-o")])
def test_a_300_character_file_name_is_a_clear_error(
    workspace: Workspace, plain: str, command: tuple[str, ...]
) -> None:
    result = workspace.run(*command, "a" * 300 + ".out")
    assert result.code == 2, result.err
    assert "internal error" not in result.err and "shorter file name" in result.err


def test_a_binary_eval_file_is_a_clear_error(workspace: Workspace, plain: str) -> None:
    (workspace.root / "blob.js").write_bytes(bytes(range(128, 256)) * 4)
    result = workspace.run("eval", "blob.js")
    assert result.code == 2 and "is not UTF-8 text" in result.err, result.err


def test_uploading_a_device_says_it_is_not_a_file(workspace: Workspace, plain: str) -> None:
    result = workspace.run("upload", "#f", "/dev/null", "--allow-path", "/dev")
    assert result.code == 2 and "/dev/null: it is a device" in result.err, result.err


def test_a_huge_argument_is_not_echoed_back(workspace: Workspace, plain: str) -> None:
    result = workspace.run("viewport", "x" * 120_000)
    assert result.code == 2 and len(result.err) < 3000 and "more characters" in result.err
