"""The daemon's life: one per workspace, started once under a race, never replaced
while alive, restarted on a version change, gone after idling or with its workspace
(a lost Chromium or driver: test_kills)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import BROWSE, Site, Workspace, _descendants, browser_pid
from killing import held_route, wait_for_exit
from refbrowse import __version__

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _slow_page(site: Site, path: str, seconds: float) -> str:
    def reply(handler: object) -> None:
        time.sleep(seconds)
        handler.reply("<title>slow</title><p>finally</p>")  # type: ignore[attr-defined]

    return site.route(path, reply)


def _started_daemons(ws: Workspace) -> int:
    return (ws.state_dir / "daemon.log").read_text().count(" listening on ")


def _wait_until(condition: object, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def test_ten_clis_at_once_on_a_cold_workspace_start_one_daemon(
    fresh_workspace: Workspace, site: Site
) -> None:
    url = site.page("/race", "<title>race</title><p>one daemon</p>")
    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(lambda _: fresh_workspace.run("goto", url), range(10)))
    assert [r.code for r in results] == [0] * 10, [r.err for r in results]
    assert all("Navigated to" in r.out for r in results)
    assert _started_daemons(fresh_workspace) == 1


def test_output_captured_by_command_substitution_returns(fresh_workspace: Workspace, site: Site) -> None:
    url = site.page("/subst", "<p>x</p>")
    proc = subprocess.run(
        ["sh", "-c", f'x=$("{BROWSE}" goto {url}); y=$("{BROWSE}" url); echo "[$y]"'],
        cwd=fresh_workspace.root,
        env=fresh_workspace.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.strip() == f"[{url}]"


def test_a_busy_daemon_is_never_replaced(fresh_workspace: Workspace, site: Site) -> None:
    fresh_workspace.ok("goto", "about:blank")
    pid = fresh_workspace.daemon_info()["pid"]
    slow = fresh_workspace.start("goto", _slow_page(site, "/busy", 3))
    time.sleep(0.5)
    # Another session answers while the first is busy; the same session waits its turn.
    assert fresh_workspace.ok("--session", "other", "url").strip() == "about:blank"
    waited = fresh_workspace.ok("url").strip()
    out, _ = slow.communicate(timeout=30)
    assert slow.returncode == 0 and "Navigated to" in out
    assert waited.endswith("/busy")
    assert fresh_workspace.daemon_info()["pid"] == pid
    assert _started_daemons(fresh_workspace) == 1


def test_ctrl_c_cancels_the_command_and_frees_the_tab(fresh_workspace: Workspace, site: Site) -> None:
    fresh_workspace.ok("goto", "about:blank")
    held = held_route(site, "/interrupted")
    slow = fresh_workspace.start("goto", held.url)
    assert held.asked.wait(60), "the goto never asked for the page"
    slow.send_signal(signal.SIGINT)
    _, err = slow.communicate(timeout=10)
    assert slow.returncode == 130 and "interrupted" in err
    result = fresh_workspace.run("url", timeout=10)
    assert result.code == 0
    # The page still loading the held answer kept the teardown's `stop` 10 s on saving the state.
    held.released.set()


def test_idle_daemon_shuts_itself_down(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank", BROWSE_IDLE_TIMEOUT="1500")
    _wait_until(lambda: not (fresh_workspace.state_dir / "daemon.json").exists())
    assert "idle for 1500 ms: stopping" in (fresh_workspace.state_dir / "daemon.log").read_text()
    assert fresh_workspace.run("status").code == 3


def test_a_removed_workspace_takes_its_daemon_and_chromium_along(tmp_path: Path, site: Site) -> None:
    ws = Workspace(tmp_path / "removed")
    ws.ok("goto", site.page("/removed", "<title>here</title><p>soon gone</p>"))
    daemon = int(str(ws.daemon_info()["pid"]))
    browser = browser_pid(daemon)
    try:
        for _ in range(5):  # the daemon may write a log line while the tree is removed
            shutil.rmtree(ws.root, ignore_errors=True)
        wait_for_exit(daemon, 60)
        wait_for_exit(browser, 30)
        assert not ws.root.exists(), "the daemon put part of the removed workspace back"
    except BaseException:  # never leave them running for the next tests
        for pid in (daemon, browser):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        raise


def test_a_workspace_removed_and_used_again_at_once_keeps_its_new_daemon(tmp_path: Path, site: Site) -> None:
    # The old daemon notices the removal seconds later; on its way out it removed the socket file at
    # its path, which by then was the new daemon's: the new one held the lock and answered no one.
    ws = Workspace(tmp_path / "again")
    page = site.page("/again", "<title>again</title><p>here</p>")
    ws.ok("goto", page)
    daemons = [int(str(ws.daemon_info()["pid"]))]
    try:
        shutil.rmtree(ws.root, ignore_errors=True)
        ws.root.mkdir()
        ws.ok("goto", page)
        daemons.append(int(str(ws.daemon_info()["pid"])))
        assert daemons[1] != daemons[0]
        wait_for_exit(daemons[0], 60)
        assert ws.ok("url").strip().endswith("/again"), "the new daemon no longer answers"
    finally:
        ws.run("stop")
        for pid in daemons:  # one that no one can reach any more would run on with its Chromium
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def test_a_headless_browser_starts_no_renderer_for_its_address_bars_popups(
    fresh_workspace: Workspace, site: Site
) -> None:
    """Chromium makes the omnibox's popups web pages of each new window, in a renderer of their own
    (`--top-chrome-webui`): the daemon's headless browser is launched without them."""
    fresh_workspace.ok("goto", site.page("/popups", "<title>one tab</title><p>its renderer</p>"))
    renderers = []
    for pid in _descendants(int(str(fresh_workspace.daemon_info()["pid"]))):
        with contextlib.suppress(OSError):
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()  # Chromium's children rewrite theirs
            if b"--type=renderer" in cmdline:
                renderers.append(cmdline)
    assert renderers, "the page's own renderer was not found"
    assert not [cmdline for cmdline in renderers if b"--top-chrome-webui" in cmdline]


def test_a_daemon_of_another_version_is_replaced(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank")
    state = fresh_workspace.state_dir / "daemon.json"
    info = json.loads(state.read_text())
    state.write_text(json.dumps({**info, "version": "0.0.0-old"}))
    result = fresh_workspace.run("url")
    assert result.code == 0 and "starting browser" in result.err
    assert f"restarting the daemon: it runs version 0.0.0-old, this is {__version__}" in result.err
    assert fresh_workspace.daemon_info()["pid"] != info["pid"]
    assert fresh_workspace.daemon_info()["version"] != "0.0.0-old"


def test_stop_then_status_says_not_running(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank")
    assert fresh_workspace.ok("stop").strip() == "Stopped."
    status = fresh_workspace.run("status")
    assert status.code == 3 and "no daemon is running" in status.err
    assert fresh_workspace.ok("stop").strip() == "no daemon is running"


def test_restart_gives_a_new_daemon(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank")
    old = fresh_workspace.daemon_info()["pid"]
    out = fresh_workspace.ok("restart")
    assert "healthy" in out and fresh_workspace.daemon_info()["pid"] != old


@pytest.mark.browser
def test_two_workspaces_have_their_own_daemons(tmp_path: Path, site: Site) -> None:
    first, second = Workspace(tmp_path / "a"), Workspace(tmp_path / "b")
    try:
        first.ok("goto", site.page("/ws-a", "<p>a</p>"))
        second.ok("goto", site.page("/ws-b", "<p>b</p>"))
        assert first.ok("url").strip().endswith("/ws-a")
        assert second.ok("url").strip().endswith("/ws-b")
        assert first.daemon_info()["pid"] != second.daemon_info()["pid"]
    finally:
        first.stop()
        second.stop()


def test_the_workspace_is_found_from_a_subdirectory(fresh_workspace: Workspace, site: Site) -> None:
    fresh_workspace.ok("goto", site.page("/nested", "<p>n</p>"))
    sub = fresh_workspace.root / "src" / "deep"
    sub.mkdir(parents=True)
    proc = subprocess.run([BROWSE, "url"], cwd=sub, env=fresh_workspace.env, capture_output=True, text=True)
    assert proc.stdout.strip().endswith("/nested")
    assert not (sub / ".refbrowse").exists()


def test_a_daemon_with_another_launch_config_is_replaced(fresh_workspace: Workspace) -> None:
    fresh_workspace.ok("goto", "about:blank")
    old = fresh_workspace.daemon_info()
    result = fresh_workspace.run("url", BROWSE_CHROMIUM_PATH="/usr/bin/chromium")
    assert result.code == 0 and "starting browser" in result.err
    changed = "restarting the daemon: BROWSE_CHROMIUM_PATH=/usr/bin/chromium here, (unset) there"
    assert changed in result.err
    new = fresh_workspace.daemon_info()
    assert new["pid"] != old["pid"] and new["config"] != old["config"]
