"""`browse install` and `browse doctor`: a browser found (or how to get one), and the set-up on one screen."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from conftest import BROWSE, CHROMIUM, Workspace
from refbrowse.skill import render

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _no_browser_env(ws: Workspace, tmp_path: Path) -> dict[str, str]:
    """A machine with no browser: nothing on PATH, no Playwright browsers, an empty home."""
    (tmp_path / "empty").mkdir(exist_ok=True)
    return {"PATH": str(tmp_path / "empty"), "HOME": str(tmp_path), "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path)}


def _lines(out: str) -> dict[str, str]:
    """Doctor's lines by label; a problem's `!` line is added to the line it belongs to."""
    lines: dict[str, str] = {}
    label = ""
    for line in out.splitlines():
        if line.strip().startswith("! "):
            lines[label] += "\n" + line.strip()
        elif line[:10].strip():
            label = line[:10].strip()
            lines[label] = line[11:]
    return lines


def _same_file(named: str, path: str) -> bool:
    """`named` is `path`, or a link to it (a PATH may name the system's Chromium through a link)."""
    return os.path.realpath(named) == os.path.realpath(path)


def test_install_finds_the_system_chromium_and_names_its_version(fresh_workspace: Workspace) -> None:
    done = fresh_workspace.run("install", "--no-download")
    assert done.code == 0, done.err
    found, _, version = done.out.removeprefix("browser: ").partition(" (")
    assert _same_file(found, CHROMIUM) and version.startswith("Chromium "), done.out
    assert not fresh_workspace.state_dir.exists(), "install needs no daemon"


def test_install_prefers_playwrights_browser(fresh_workspace: Workspace, tmp_path: Path) -> None:
    env = _no_browser_env(fresh_workspace, tmp_path)
    chrome = tmp_path / "chromium-1255" / "chrome-linux64" / "chrome"
    chrome.parent.mkdir(parents=True)
    chrome.symlink_to(CHROMIUM)
    done = fresh_workspace.run("install", "--no-download", **env)
    assert done.code == 0, done.err
    assert done.out.startswith(f"browser: {chrome} (Chromium ")


def test_install_without_a_browser_prints_the_command_for_this_system(
    fresh_workspace: Workspace, tmp_path: Path
) -> None:
    done = fresh_workspace.run("install", "--no-download", **_no_browser_env(fresh_workspace, tmp_path))
    assert done.code == 3
    assert "no Chromium or Chrome found on this computer" in done.out
    if "debian" in Path("/etc/os-release").read_text().lower():
        assert "apt-get install -y --no-install-recommends chromium fonts-liberation" in done.err
    assert "then `browse install` again" in done.err


def test_install_refuses_a_browser_path_that_is_not_one(fresh_workspace: Workspace, tmp_path: Path) -> None:
    done = fresh_workspace.run("install", BROWSE_CHROMIUM_PATH=str(tmp_path / "nothing"))
    assert done.code == 3
    assert f"BROWSE_CHROMIUM_PATH={tmp_path / 'nothing'} is not an executable file" in done.err
    assert "unset it" in done.err


def test_a_named_browser_that_is_not_one_gets_one_next_step_from_doctor_install_and_goto(
    fresh_workspace: Workspace, tmp_path: Path
) -> None:
    named = {"BROWSE_CHROMIUM_PATH": str(tmp_path / "nonexistent")}
    doctor = fresh_workspace.run("doctor", **named)
    install = fresh_workspace.run("install", **named)
    goto = fresh_workspace.run("goto", "about:blank", **named)
    assert doctor.code == install.code == goto.code == 3
    hint = install.err.split("hint: ", 1)[1].strip()
    assert "unset it" in hint and f"! {hint}" in _lines(doctor.out)["browser"], doctor.out
    assert f"hint: {hint}" in goto.err, goto.err


def test_doctor_before_anything_ran(fresh_workspace: Workspace) -> None:
    done = fresh_workspace.run("doctor")
    assert done.code == 0, done.out + done.err
    lines = _lines(done.out)
    found, _, version = lines["browser"].partition(" (")
    assert _same_file(found, CHROMIUM) and version.startswith("Chromium "), lines["browser"]
    assert lines["workspace"] == f"{fresh_workspace.root} (the .git root)"
    assert "not created yet" in lines["state dir"] and lines["daemon"].startswith("not running")
    assert lines["skill"].startswith("not installed")
    assert not fresh_workspace.state_dir.exists(), "doctor only looks"


def test_doctor_sees_the_daemon_the_skill_and_the_mcp_token_file(fresh_workspace: Workspace) -> None:
    ws = fresh_workspace
    ws.ok("goto", "about:blank")
    ws.ok("skill", "install")
    server = ws.start("mcp", "--http")
    try:
        token_file = ws.state_dir / "mcp.json"
        deadline = time.monotonic() + 30
        while not token_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        lines = _lines(ws.ok("doctor"))
    finally:
        server.terminate()
        server.wait(timeout=30)
    info = ws.daemon_info()
    assert lines["state dir"] == f"{ws.state_dir} (owner {_me()}, mode 0700)"
    assert lines["daemon"].startswith(f"pid {info['pid']}, headless, {ws.state_dir / 'daemon.sock'}")
    assert lines["mcp"] == f"{token_file} (mode 0600, server pid {server.pid} running)"
    assert lines["skill"] == f"project {ws.root / '.claude' / 'skills' / 'refbrowse' / 'SKILL.md'}"


def test_doctor_says_what_to_do_about_each_problem(fresh_workspace: Workspace, tmp_path: Path) -> None:
    ws = fresh_workspace
    ws.state_dir.mkdir(mode=0o755)
    os.chmod(ws.state_dir, 0o755)
    skill = ws.root / ".claude" / "skills" / "refbrowse" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(render().replace("## Rules", "## Old rules"))
    done = ws.run("doctor", **_no_browser_env(ws, tmp_path))
    assert done.code == 3, "no browser: refbrowse cannot run here"
    lines = _lines(done.out)
    assert "! run `browse install`" in lines["browser"]
    assert f"! make it private: chmod 700 {ws.state_dir}" in lines["state dir"]
    assert "(outdated)" in lines["skill"] and "! refresh it: `browse skill install`" in lines["skill"]
    assert "! put it there" in lines["browse"], "no `browse` on this PATH"
    assert done.out.rstrip().endswith("problems: see the ! lines")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs another user's folder: run as root")
def test_doctor_refuses_a_state_dir_of_another_user(fresh_workspace: Workspace) -> None:
    ws = fresh_workspace
    ws.state_dir.mkdir(mode=0o700)
    os.chown(ws.state_dir, 65534, 65534)
    try:
        done = ws.run("doctor")
    finally:
        os.chown(ws.state_dir, 0, 0)
    assert done.code == 3
    lines = _lines(done.out)
    assert "! it belongs to nobody" in lines["state dir"]
    assert lines["daemon"] == "not checked (the state directory is not this user's)"


def _me() -> str:
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def test_browse_on_path_is_reported_as_such(fresh_workspace: Workspace) -> None:
    path = f"{Path(BROWSE).parent}{os.pathsep}{os.environ['PATH']}"
    out = fresh_workspace.ok("doctor", PATH=path)
    assert _lines(out)["browse"] == f"{BROWSE} (on PATH)"
