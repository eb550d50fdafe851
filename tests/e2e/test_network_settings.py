"""Routes, extra headers, offline, throttling and HAR: what the page and the server saw, through `browse`.

Each test works in a session of its own (`--session`), so one test's settings never reach another's
page; the server counts and records the requests it was actually sent.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from haralyzer import HarParser
from test_mcp import _stdio, ok

from conftest import FixtureHandler, Site, Workspace
from refbrowse.daemon.services.activity.redact import HIDDEN, redacted_args, redacted_flags
from refbrowse.mcp.tools import LONG_TAIL_TOOL

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PAGE = """<title>Net</title><h1>Net</h1>
<button id="load" onclick="load()">Load</button>
<p id="out">empty</p>
<script>
async function load() {
  try {
    const r = await fetch('/net/api/items');
    out.textContent = r.status + ' ' + await r.text();
  } catch (e) { out.textContent = 'failed: ' + e.message; }
}
</script>"""

IMAGE_AND_XHR = """<title>Pics</title><h1>Pics</h1><p id="img">pending</p><p id="xhr">pending</p>
<script>
const im = new Image();
im.onload = () => img.textContent = 'loaded';
im.onerror = () => img.textContent = 'blocked';
im.src = '/net/pic.png';
const x = new XMLHttpRequest();
x.onload = () => xhr.textContent = 'answered ' + x.status;
x.onerror = () => xhr.textContent = 'blocked';
x.open('GET', '/net/api/xhr'); x.send();
</script>"""

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


class Server:
    """What the test server was sent: paths in order, and each request's headers."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.headers: list[dict[str, str]] = []
        self.answer = "from the server"
        self._lock = threading.Lock()

    def seen(self, handler: FixtureHandler) -> None:
        with self._lock:
            self.paths.append(handler.path)
            self.headers.append({k.lower(): v for k, v in handler.headers.items()})


@pytest.fixture(scope="module")
def server(site: Site) -> Iterator[Server]:
    record = Server()

    def api(handler: FixtureHandler) -> None:
        record.seen(handler)
        handler.reply(json.dumps({"items": record.answer}), headers={"Cache-Control": "no-store"})

    def pic(handler: FixtureHandler) -> None:
        record.seen(handler)
        handler.send_response(200)
        handler.send_header("Content-Type", "image/png")
        handler.send_header("Content-Length", str(len(PNG)))
        handler.end_headers()
        handler.wfile.write(PNG)

    def page(html: str) -> object:
        def serve(handler: FixtureHandler) -> None:
            record.seen(handler)
            handler.reply(html)

        return serve

    site.route("/net/api/items", api)
    site.route("/net/api/xhr", api)
    site.route("/net/pic.png", pic)
    site.route("/net/page", page(PAGE))  # type: ignore[arg-type]
    site.route("/net/pics", page(IMAGE_AND_XHR))  # type: ignore[arg-type]
    yield record


def in_session(ws: Workspace, session: str, *args: str) -> str:
    return ws.ok("--session", session, *args)


def page_text(ws: Workspace, session: str, expression: str) -> str:
    return in_session(ws, session, "--raw", "js", expression).strip()


def test_a_route_answers_a_fetch_the_server_never_sees_and_the_report_names_it(
    workspace: Workspace, site: Site, server: Server
) -> None:
    s = "mock"
    in_session(workspace, s, "goto", site.url("/net/page"))
    said = in_session(
        workspace,
        s,
        "route",
        "**/net/api/*",
        "--body",
        '{"items": "mocked"}',
        "--content-type",
        "application/json",
        "--header",
        "X-Mock: yes",
    )
    assert "**/net/api/* → answer 200 application/json" in said
    before = server.paths.count("/net/api/items")
    report = in_session(workspace, s, "click", "#load")
    assert "request GET /net/api/items answered by route **/net/api/* (200)" in report
    assert page_text(workspace, s, "out.textContent") == '200 {"items": "mocked"}'
    assert server.paths.count("/net/api/items") == before  # answered in the browser
    assert "(1 request answered)" in in_session(workspace, s, "routes")
    in_session(workspace, s, "unroute", "**/net/api/*")
    in_session(workspace, s, "click", "#load")
    assert page_text(workspace, s, "out.textContent") == '200 {"items": "from the server"}'
    assert server.paths.count("/net/api/items") == before + 1


def test_blocked_image_and_xhr_fail_in_the_page_and_never_reach_the_server(
    workspace: Workspace, site: Site, server: Server
) -> None:
    s = "block"
    in_session(workspace, s, "route", "**/*.png", "--abort")
    in_session(workspace, s, "route", "/\\/net\\/api\\/xhr$/", "--abort")  # a regular expression
    before = len(server.paths)
    report = in_session(workspace, s, "goto", site.url("/net/pics"))
    assert page_text(workspace, s, "img.textContent + ' ' + xhr.textContent") == "blocked blocked"
    assert server.paths[before:] == ["/net/pics"]
    assert "request GET /net/pic.png blocked by route **/*.png" in report


def test_a_delayed_api_answers_after_the_delay_and_reaches_the_server(
    workspace: Workspace, site: Site, server: Server
) -> None:
    s = "slow"
    in_session(workspace, s, "goto", site.url("/net/page"))
    in_session(workspace, s, "route", "**/net/api/items", "--delay", "1200", "--times", "1")
    before = server.paths.count("/net/api/items")
    took = page_text(
        workspace,
        s,
        "await (async () => { const t = performance.now(); await load(); "
        "return Math.round(performance.now() - t) })()",
    )
    assert int(took) >= 1200  # the page waited at least as long as the route held the request
    assert server.paths.count("/net/api/items") == before + 1
    assert page_text(workspace, s, "out.textContent") == '200 {"items": "from the server"}'
    assert "(1 request answered)" in in_session(workspace, s, "routes")


def test_extra_headers_reach_the_server_and_a_secret_value_is_never_echoed(
    workspace: Workspace, site: Site, server: Server
) -> None:
    s = "headers"
    secret = "Bearer s3cr3t-value"
    said = in_session(workspace, s, "headers", "set", "Authorization", secret)
    assert secret not in said and "(redacted)" in said
    in_session(workspace, s, "headers", "set", "X-Test", "one")
    in_session(workspace, s, "headers", "set", "X-Elsewhere", "no", "--origin", "https://example.com")
    in_session(workspace, s, "goto", site.url("/net/page"))
    in_session(workspace, s, "click", "#load")
    assert server.paths[-1] == "/net/api/items"
    sent = server.headers[-1]
    assert sent["authorization"] == secret and sent["x-test"] == "one"
    assert "x-elsewhere" not in sent
    status = workspace.ok("--session", s, "status")
    assert "Authorization: (redacted)" in status and secret not in status
    assert secret not in (workspace.state_dir / "daemon.log").read_text()
    in_session(workspace, s, "headers", "clear")
    in_session(workspace, s, "click", "#load")
    assert "authorization" not in server.headers[-1]


def test_offline_turns_navigator_online_false_and_fails_fetches_until_back_online(
    workspace: Workspace, site: Site, server: Server
) -> None:
    s = "offline"
    in_session(workspace, s, "goto", site.url("/net/page"))
    in_session(workspace, s, "offline", "on")
    assert page_text(workspace, s, "navigator.onLine") == "false"
    in_session(workspace, s, "click", "#load")
    assert page_text(workspace, s, "out.textContent").startswith("failed:")
    in_session(workspace, s, "throttle", "fast-3g")  # its conditions keep the session offline
    in_session(workspace, s, "throttle", "off")
    in_session(workspace, s, "offline", "off")
    assert page_text(workspace, s, "navigator.onLine") == "true"
    in_session(workspace, s, "click", "#load")
    assert page_text(workspace, s, "out.textContent").startswith("200 ")


def test_throttling_slows_every_tab_new_ones_too(workspace: Workspace, site: Site, server: Server) -> None:
    s = "throttle"
    in_session(workspace, s, "goto", site.url("/net/page"))
    in_session(workspace, s, "throttle", "fast-3g")
    in_session(workspace, s, "newtab", site.url("/net/page"))
    timed = (
        "await (async () => { const t = performance.now(); await load(); return performance.now() - t })()"
    )
    assert float(page_text(workspace, s, timed)) >= 500  # the preset's latency is 562.5 ms
    in_session(workspace, s, "throttle", "off")
    assert "  throttle: " not in workspace.ok("--session", s, "status")


def test_a_har_is_valid_har_1_2_and_replays_the_recorded_answers(
    workspace: Workspace, site: Site, server: Server
) -> None:
    s = "har"
    har = workspace.root / "api.har"
    in_session(workspace, s, "har", "start", str(har))
    in_session(workspace, s, "goto", site.url("/net/page"))
    in_session(workspace, s, "click", "#load")
    assert "Wrote HAR 1.2" in in_session(workspace, s, "har", "stop")
    data = json.loads(har.read_text())
    assert data["log"]["version"] == "1.2"
    parsed = HarParser(data)
    urls = [entry.request.url for page in parsed.pages for entry in page.entries]
    assert site.url("/net/api/items") in urls
    server.answer = "changed since"
    try:
        said = in_session(workspace, s, "route", "--har", str(har), "--url", "**/net/api/**")
        assert "answer from HAR" in said
        before = server.paths.count("/net/api/items")
        report = in_session(workspace, s, "click", "#load")
        assert page_text(workspace, s, "out.textContent") == '200 {"items": "from the server"}'
        assert server.paths.count("/net/api/items") == before
        assert "answered from a HAR by route **/net/api/** (200)" in report
    finally:
        server.answer = "from the server"


def test_bad_network_and_emulation_input_exits_2_before_any_daemon_starts(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "fresh")
    for args, said in (
        (["geo", "91", "2"], "geo LAT must be from -90 to 90"),
        (["geo", "45", "200"], "geo LON must be from -180 to 180"),
        (["colorscheme", "blue"], "colorscheme SCHEME takes one of dark, light"),
        (["route", "**/x", "--header", "no colon"], "NAME:VALUE"),
        (["throttle", "2g"], "throttle PRESET takes one of slow-3g"),
        (["timezone", "Mars/Olympus"], "is not a time zone name"),
        (["permissions", "grant", "telepathy"], "permissions NAME takes one of geolocation"),
    ):
        result = ws.run(*args)
        assert result.code == 2 and said in result.err, (args, result.err)
    assert not (ws.state_dir / "daemon.json").exists()


def test_a_route_without_an_answer_and_a_missing_har_are_usage_errors(workspace: Workspace) -> None:
    result = workspace.run("--session", "errors", "route", "**/x")
    assert result.code == 2 and "route needs --body" in result.err
    result = workspace.run("--session", "errors", "route", "**/x", "--abort", "--body", "x")
    assert result.code == 2 and "--abort" in result.err
    result = workspace.run("--session", "errors", "unroute", "**/none")
    assert result.code == 1 and "no route for **/none" in result.err


def test_a_body_file_answers_with_its_type_and_the_path_policy_guards_it(
    workspace: Workspace, site: Site, server: Server
) -> None:
    s = "bodyfile"
    body = workspace.root / "items.json"
    body.write_text('{"items": "from a file"}')
    in_session(workspace, s, "goto", site.url("/net/page"))
    in_session(workspace, s, "route", "**/net/api/items", "--body-file", str(body))
    kind = page_text(workspace, s, "await fetch('/net/api/items').then(r => r.headers.get('content-type'))")
    assert kind == "application/json"
    in_session(workspace, s, "click", "#load")
    assert page_text(workspace, s, "out.textContent") == '200 {"items": "from a file"}'
    refused = workspace.run(
        "--session", s, "route", "**/x", "--body-file", str(workspace.state_dir / "daemon.json")
    )
    assert refused.code == 2 and "refusing to read" in refused.err


def test_the_activity_feed_hides_secret_header_values_given_as_arguments_or_flags() -> None:
    shown = asyncio.run(redacted_args("headers", ["set", "Authorization", "Bearer s3cr3t"], True, None))
    assert shown == ("set", "Authorization", HIDDEN)
    assert asyncio.run(redacted_args("headers", ["set", "X-Debug", "1"], True, None))[2] == "1"
    flags = redacted_flags({"--header": ["Set-Cookie: sid=s3cr3t", "X-Mock: yes"], "--status": "200"})
    assert flags == {"--header": [f"Set-Cookie:{HIDDEN}", "X-Mock: yes"], "--status": "200"}


def test_routes_reach_mcp_through_the_browse_tool_with_a_repeated_flag(
    workspace: Workspace, site: Site, server: Server
) -> None:
    async def scenario() -> None:
        async with _stdio(workspace) as client:
            await ok(client, "goto", {"url": site.url("/net/page")})
            line = "route '**/net/api/items' --status 201 --body hi --header 'X-A: 1' --header 'X-B: 2'"
            assert "answer 201" in await ok(client, LONG_TAIL_TOOL, {"command": line})
            clicked = await ok(client, "click", {"sel": "#load"})
            assert "answered by route **/net/api/items (201)" in clicked
            headers = "await fetch('/net/api/items').then(r => r.headers.get('x-a') + r.headers.get('x-b'))"
            assert "12" in await ok(client, LONG_TAIL_TOOL, {"command": f'js "{headers}"'})
            await ok(client, LONG_TAIL_TOOL, {"command": "unroute"})

    asyncio.run(scenario())
