"""Emulation and permissions as the page sees them, and settings kept across `browse restart`.

Each test works in a session of its own (`--session`), so one test's emulation never reaches
another's page.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator

import pytest

from conftest import FixtureHandler, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PAGE = """<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Device</title><h1>Device</h1><p id="out">empty</p>"""

FACTS = """JSON.stringify({
  width: innerWidth, dpr: devicePixelRatio, ua: navigator.userAgent, touch: navigator.maxTouchPoints,
  ontouch: 'ontouchstart' in window, zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  language: navigator.language, dark: matchMedia('(prefers-color-scheme: dark)').matches,
  print: matchMedia('print').matches, reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
})"""

POSITION = (
    "await new Promise(done => navigator.geolocation.getCurrentPosition("
    "p => done(p.coords.latitude + ',' + p.coords.longitude + ',' + p.coords.accuracy),"
    " e => done('error ' + e.code), {timeout: 3000}))"
)


class Seen:
    """The request headers the server was sent, latest last."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()


@pytest.fixture(scope="module")
def seen(site: Site) -> Iterator[Seen]:
    record = Seen()

    def page(handler: FixtureHandler) -> None:
        with record.lock:
            record.headers.append({k.lower(): v for k, v in handler.headers.items()})
        handler.reply(PAGE)

    site.route("/emu/page", page)
    yield record


def facts(ws: Workspace, session: str) -> dict[str, object]:
    data = json.loads(ws.ok("--session", session, "--raw", "js", FACTS))
    assert isinstance(data, dict)
    return data


def run(ws: Workspace, session: str, *args: str) -> str:
    return ws.ok("--session", session, *args)


def test_a_device_gives_the_page_its_viewport_scale_agent_and_touch_and_off_takes_them_back(
    workspace: Workspace, site: Site, seen: Seen
) -> None:
    s = "device"
    run(workspace, s, "goto", site.url("/emu/page"))
    desktop = facts(workspace, s)
    said = run(workspace, s, "device", "iPhone", "13")
    assert "390x664, scale 3, mobile, touch" in said and "cookies, tabs and history kept" in said
    run(workspace, s, "reload")
    phone = facts(workspace, s)
    assert (phone["width"], phone["dpr"], phone["ontouch"]) == (390, 3, True)
    assert "iPhone" in str(phone["ua"]) and int(str(phone["touch"])) > 0
    assert "iPhone" in seen.headers[-1]["user-agent"]
    run(workspace, s, "device", "off")
    run(workspace, s, "reload")
    back = facts(workspace, s)
    assert (back["width"], back["dpr"], back["ua"], back["ontouch"]) == (
        desktop["width"],
        desktop["dpr"],
        desktop["ua"],
        False,
    )


def test_devices_lists_playwrights_registry_and_an_unknown_name_gets_the_closest(
    workspace: Workspace,
) -> None:
    listed = run(workspace, "names", "devices", "pixel")
    assert "Pixel 7  412x839 @2.625x mobile touch" in listed
    result = workspace.run("--session", "names", "device", "Pixle", "7")
    assert result.code == 2 and "unknown device: Pixle 7" in result.err and "Pixel 7" in result.err


def test_time_zone_locale_colour_scheme_print_and_motion_as_the_page_sees_them(
    workspace: Workspace, site: Site, seen: Seen
) -> None:
    s = "prefs"
    run(workspace, s, "goto", site.url("/emu/page"))
    for args in (
        ("timezone", "Asia/Tokyo"),
        ("locale", "de-DE"),
        ("colorscheme", "dark"),
        ("media", "print"),
        ("reducedmotion", "reduce"),
    ):
        run(workspace, s, *args)
    run(workspace, s, "reload")  # they hold across a reload, not only in the document they were set on
    seen_now = facts(workspace, s)
    assert seen_now["zone"] == "Asia/Tokyo" and seen_now["language"] == "de-DE"
    assert (seen_now["dark"], seen_now["print"], seen_now["reduce"]) == (True, True, True)
    assert seen.headers[-1]["accept-language"].startswith("de-DE")
    offset = workspace.ok("--session", s, "--raw", "js", "new Date(2024, 0, 1).getTimezoneOffset()")
    assert offset.strip() == "-540"
    status = workspace.ok("--session", s, "status")
    assert "emulation: timezone Asia/Tokyo, locale de-DE, colorscheme dark, media print" in status
    for args in (("timezone", "off"), ("colorscheme", "off"), ("media", "off"), ("reducedmotion", "off")):
        run(workspace, s, *args)
    after = facts(workspace, s)
    assert after["zone"] != "Asia/Tokyo" and not after["dark"] and not after["print"]


def test_geo_sets_the_position_and_allows_it_to_the_current_site(
    workspace: Workspace, site: Site, seen: Seen
) -> None:
    s = "geo"
    run(workspace, s, "goto", site.url("/emu/page"))
    said = run(workspace, s, "geo", "48.8584", "2.2945", "--accuracy", "25")
    assert f"granted to {site.origin}" in said
    got = workspace.ok("--session", s, "--raw", "js", POSITION).strip()
    assert got == "48.8584,2.2945,25"
    run(workspace, s, "geo", "off")
    got = workspace.ok("--session", s, "--raw", "js", POSITION).strip()
    assert got.startswith("error")


def test_permissions_grant_and_clear_as_navigator_permissions_says(
    workspace: Workspace, site: Site, seen: Seen
) -> None:
    s = "perms"
    run(workspace, s, "goto", site.url("/emu/page"))
    query = "(await navigator.permissions.query({name: 'camera'})).state"
    assert workspace.ok("--session", s, "--raw", "js", query).strip() == "prompt"
    run(workspace, s, "permissions", "grant", "camera", "microphone", "--origin", site.url("/any"))
    assert workspace.ok("--session", s, "--raw", "js", query).strip() == "granted"
    assert f"permissions: camera, microphone on {site.origin}" in workspace.ok("--session", s, "status")
    run(workspace, s, "permissions", "clear")
    assert workspace.ok("--session", s, "--raw", "js", query).strip() == "prompt"


def test_a_restarted_daemon_keeps_routes_headers_and_emulation_and_status_says_so(
    fresh_workspace: Workspace, site: Site, seen: Seen
) -> None:
    ws = fresh_workspace
    ws.ok("route", "**/emu/mocked", "--body", "mocked after restart")
    ws.ok("headers", "set", "X-Kept", "yes")
    ws.ok("timezone", "America/Sao_Paulo")
    ws.ok("device", "Pixel 7")
    ws.ok("restart")
    status = ws.ok("status")
    assert "settings of session default (restored after a restart: emulation, headers, routes)" in status
    assert "routes: **/emu/mocked → answer 200" in status and "headers: X-Kept: yes" in status
    ws.ok("goto", site.url("/emu/page"))
    assert seen.headers[-1]["x-kept"] == "yes" and "Pixel 7" in seen.headers[-1]["user-agent"]
    page = facts(ws, "default")
    assert page["zone"] == "America/Sao_Paulo" and page["width"] == 412
    ws.ok("goto", site.url("/emu/mocked"))
    assert "mocked after restart" in ws.ok("text")


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb not installed (`make xvfb`)")
def test_a_switch_to_a_headed_browser_and_back_keeps_routes_and_emulation(
    fresh_workspace: Workspace, site: Site, seen: Seen
) -> None:
    ws = fresh_workspace
    ws.env.pop("DISPLAY", None)
    ws.env.pop("WAYLAND_DISPLAY", None)
    ws.ok("goto", site.url("/emu/page"))
    ws.ok("route", "**/emu/mocked", "--body", "mocked across the switch")
    ws.ok("timezone", "Australia/Sydney")
    ws.ok("connect")
    assert facts(ws, "default")["zone"] == "Australia/Sydney"
    ws.ok("goto", site.url("/emu/mocked"))
    assert "mocked across the switch" in ws.ok("text")
    ws.ok("disconnect")
    ws.ok("reload")
    assert "mocked across the switch" in ws.ok("text")
    ws.ok("goto", site.url("/emu/page"))
    assert facts(ws, "default")["zone"] == "Australia/Sydney"


def test_a_saved_setting_that_no_longer_applies_is_dropped_with_a_notice(
    fresh_workspace: Workspace, site: Site, seen: Seen
) -> None:
    ws = fresh_workspace
    ws.ok("timezone", "Europe/Oslo")
    ws.ok("stop")
    saved = ws.state_dir / "state" / "settings-default.json"
    data = json.loads(saved.read_text())
    data["settings"]["routes"] = [{"pattern": "/unclosed(/", "abort": True}]  # edited by hand
    saved.write_text(json.dumps(data))
    result = ws.run("goto", site.url("/emu/page"))
    assert result.code == 0, result.err
    assert "the saved routes setting could not be applied" in result.out + result.err
    assert facts(ws, "default")["zone"] == "Europe/Oslo"  # the rest came back
    assert "routes:" not in ws.ok("status")
    assert "routes" not in json.loads(saved.read_text())["settings"]
