"""Cookies set and cleared, as the page and the server see them; `wait --fn`, `--download`, `--response`."""

from __future__ import annotations

import json
import time

import pytest
from tests.conftest import FixtureHandler, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _echo_cookies(handler: FixtureHandler) -> None:
    handler.reply(f"<title>Echo</title><pre id=seen>{handler.headers.get('Cookie', '')}</pre>")


def _page_value(workspace: Workspace, expr: str) -> object:
    return json.loads(workspace.ok("--json", "js", expr))["data"]["value"]


def test_cookies_set_reaches_document_cookie_and_the_server(workspace: Workspace, site: Site) -> None:
    url = site.route("/cookie-echo", _echo_cookies)
    workspace.ok("goto", url)
    out = workspace.ok("cookies", "set", "theme", "dark")
    assert "Set cookie theme" in out and "127.0.0.1/" in out
    workspace.ok("cookies", "set", "sid", "s3cret", "--httponly", "--samesite", "Strict")
    assert _page_value(workspace, "document.cookie") == "theme=dark"  # the HttpOnly one stays hidden
    workspace.ok("reload")
    seen = strip_fence(workspace.ok("text", "#seen"))
    assert "theme=dark" in seen and "sid=s3cret" in seen
    listed = workspace.ok("cookies")
    assert "sid=s3cret" in listed and "httpOnly" in listed and "sameSite=Strict" in listed


def test_cookies_set_with_expiry_path_and_domain(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/cookie-echo"))
    later = str(int(time.time()) + 86_400)
    workspace.ok(
        "cookies", "set", "scoped", "1", "--domain", "127.0.0.1", "--path", "/cookie-echo", "--expires", later
    )
    listed = workspace.ok("cookies")
    assert (
        "scoped=1" in listed
        and "127.0.0.1/cookie-echo" in listed
        and "expires session" not in listed.split("scoped=1")[1].splitlines()[0]
    )


def test_cookies_clear_forgets_them_for_page_and_server(workspace: Workspace, site: Site) -> None:
    url = site.route("/cookie-echo", _echo_cookies)
    workspace.ok("goto", url)
    workspace.ok("cookies", "set", "a", "1")
    assert "Cleared 0 cookies of example.com" in workspace.ok("cookies", "clear", "--domain", "example.com")
    out = workspace.ok("cookies", "clear", "--domain", "127.0.0.1")
    assert "Cleared" in out and "Cleared 0" not in out
    workspace.ok("reload")
    assert "a=1" not in workspace.ok("text", "#seen")
    assert "(no cookies)" in workspace.ok("cookies")


def test_cookie_usage_errors(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/cookie-echo"))
    assert workspace.run("cookies", "set", "only-a-name").code == 2
    assert workspace.run("cookies", "set", "a", "b", "--samesite", "sometimes").code == 2
    refused = workspace.run("cookies", "set", "a", "b", "--samesite", "None")
    assert refused.code == 2 and "--secure" in refused.err


_LATER = """<!doctype html><title>Later</title><p id=out></p>
<script>
setTimeout(() => { window.ready = true; fetch('/api/later?x=1'); }, 300);
</script>"""


def test_wait_fn_polls_a_js_condition_until_true(workspace: Workspace, site: Site) -> None:
    site.route("/api/later", lambda h: h.reply('{"ok": true}'))
    workspace.ok("goto", site.page("/later.html", _LATER), "--no-wait")
    out = workspace.ok("wait", "--fn", "window.ready === true")
    assert "window.ready === true is true" in out
    assert _page_value(workspace, "window.ready") is True


def test_wait_fn_times_out_with_exit_4(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/later.html", _LATER))
    result = workspace.run("wait", "--fn", "window.never === 1", "--timeout", "500")
    assert result.code == 4


_POLLING = """<!doctype html><title>Polling</title>
<script>setInterval(() => fetch('/api/poll?x=1'), 200);</script>"""


def test_wait_response_names_the_request_it_saw(workspace: Workspace, site: Site) -> None:
    site.route("/api/poll", lambda h: h.reply('{"ok": true}'))
    workspace.ok("goto", site.page("/polling.html", _POLLING), "--no-wait")
    out = workspace.ok("wait", "--response", "/api/poll")
    assert "Response GET" in out and "/api/poll?x=1 → 200" in out
    assert workspace.run("wait", "--response", "/api/never", "--timeout", "500").code == 4


_LATE_DOWNLOAD = """<!doctype html><title>Report</title>
<a id=get href="/report.csv" download>report</a>
<script>setInterval(() => document.getElementById('get').click(), 300);</script>"""


def _csv(handler: FixtureHandler) -> None:
    handler.reply("a,b\n1,2\n", headers={"Content-Disposition": "attachment; filename=report.csv"})


def test_wait_download_keeps_the_next_download(workspace: Workspace, site: Site) -> None:
    site.route("/report.csv", _csv)
    workspace.ok("goto", site.page("/late-download.html", _LATE_DOWNLOAD), "--no-wait")
    out = workspace.ok("wait", "--download")
    saved = workspace.state_dir / "downloads" / "report.csv"
    assert "Downloaded report.csv" in out and str(saved) in out
    assert saved.read_text() == "a,b\n1,2\n"
