"""`forcedcolors` and `contrast`: what pages see through matchMedia, kept per session and across a restart."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser

SEEN = (
    "[matchMedia('(forced-colors: active)').matches, matchMedia('(prefers-contrast: more)').matches,"
    " matchMedia('(prefers-contrast: less)').matches].join(',')"
)


def seen(workspace: Workspace, session: str) -> str:
    return strip_fence(workspace.ok("--session", session, "js", SEEN)).strip()


def test_forced_colors_and_contrast_hold_across_a_reload_and_a_restart(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    url = site.page("/emu-extra/page", "<title>x</title><p>x</p>")
    ws.ok("--session", "hc", "goto", url)
    assert seen(ws, "hc") == "false,false,false"
    assert "forced-colors active" in ws.ok("--session", "hc", "forcedcolors", "active")
    assert "prefers-contrast more" in ws.ok("--session", "hc", "contrast", "more")
    assert seen(ws, "hc") == "true,true,false"
    ws.ok("--session", "hc", "reload")
    assert seen(ws, "hc") == "true,true,false"
    ws.ok("goto", url)
    assert seen(ws, "default") == "false,false,false"  # another session is untouched
    assert "forcedcolors active, contrast more" in ws.ok("--session", "hc", "status")
    ws.ok("--session", "hc", "contrast", "less")
    assert seen(ws, "hc") == "true,false,true"
    ws.ok("restart")
    ws.ok("--session", "hc", "goto", url)
    assert seen(ws, "hc") == "true,false,true"


def test_off_gives_the_page_the_browsers_own_again(workspace: Workspace, site: Site) -> None:
    url = site.page("/emu-extra/off", "<title>x</title><p>x</p>")
    workspace.ok("--session", "off", "goto", url)
    workspace.ok("--session", "off", "forcedcolors", "active")
    workspace.ok("--session", "off", "contrast", "more")
    assert seen(workspace, "off") == "true,true,false"
    workspace.ok("--session", "off", "forcedcolors", "off")
    assert seen(workspace, "off") == "false,true,false"
    workspace.ok("--session", "off", "contrast", "off")
    assert seen(workspace, "off") == "false,false,false"


def test_a_value_outside_the_list_is_refused_before_the_browser(fresh_workspace: Workspace) -> None:
    result = fresh_workspace.run("contrast", "high")
    assert result.code == 2 and "more" in result.err
    assert not (fresh_workspace.state_dir / "daemon.json").exists()


EVERY = (
    "[matchMedia('(forced-colors: active)').matches, matchMedia('(prefers-contrast: more)').matches,"
    " matchMedia('(prefers-color-scheme: dark)').matches,"
    " matchMedia('(prefers-reduced-motion: reduce)').matches, matchMedia('print').matches,"
    " Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.language, screen.width < 500,"
    " navigator.onLine].join(',')"
)
RESTORED = (
    ("forcedcolors", "active"),
    ("contrast", "more"),
    ("colorscheme", "dark"),
    ("reducedmotion", "reduce"),
    ("media", "print"),
    ("timezone", "Asia/Tokyo"),
    ("locale", "de-DE"),
    ("device", "iPhone 13"),
    ("offline", "on"),
)


def test_each_setting_a_restart_brought_back_goes_off_on_the_open_tab(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    url = site.page(
        "/emu-extra/restored", '<meta name=viewport content="width=device-width"><title>x</title><p>x</p>'
    )
    ws.ok("goto", url)
    own = strip_fence(ws.ok("js", EVERY)).strip()
    assert own == "false,false,false,false,false,UTC,en-US,false,true"
    for setting in RESTORED:
        ws.ok(*setting)
    emulated = "true,true,true,true,true,Asia/Tokyo,de-DE,true,false"
    assert strip_fence(ws.ok("js", EVERY)).strip() == emulated
    ws.ok("restart")
    # The first command after the restart already sees them on the tab it opens.
    assert strip_fence(ws.ok("js", EVERY)).strip() == emulated
    for name, _ in RESTORED:
        ws.ok(name, "off")  # once failed: "Another locale override is already in effect"
    assert strip_fence(ws.ok("js", EVERY)).strip() == own
    ws.ok("goto", url)
    assert strip_fence(ws.ok("js", EVERY)).strip() == own
