"""`network` numbers its lines and `request N` shows one request in full, bounded and with secrets masked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import FixtureHandler, Site, Workspace, strip_fence, wait_for

pytestmark = pytest.mark.browser

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)
BIG = 50 * 1024 * 1024


def _api(handler: FixtureHandler) -> None:
    sent = handler.rfile.read(int(handler.headers.get("Content-Length", "0")))
    body = json.dumps({"got": json.loads(sent), "ok": True}).encode()
    handler.send_response(201)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Set-Cookie", "sid=s3cr3t-value; Path=/")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _png(handler: FixtureHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "image/png")
    handler.send_header("Content-Length", str(len(PNG)))
    handler.end_headers()
    handler.wfile.write(PNG)


def _long_text(handler: FixtureHandler) -> None:
    body = ("line of text\n" * 2_000).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _huge(handler: FixtureHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(BIG))
    handler.end_headers()
    chunk = b"\0" * 1_048_576
    try:
        for _ in range(BIG // len(chunk)):
            handler.wfile.write(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass


def numbered(workspace: Workspace, fragment: str) -> int:
    """The number `network` gives the newest line holding `fragment`."""
    assert wait_for(lambda: fragment in workspace.ok("network")), workspace.ok("network")
    lines = [line for line in strip_fence(workspace.ok("network")).splitlines() if fragment in line]
    match = re.match(r"#(\d+) ", lines[-1])
    assert match, lines[-1]
    return int(match.group(1))


@pytest.fixture(scope="module")
def page(workspace: Workspace, site: Site) -> str:
    site.route("/req/api", _api)
    site.route("/req/pixel.png", _png)
    site.route("/req/long.txt", _long_text)
    site.route("/req/huge.bin", _huge)
    url = site.page("/req/page", "<title>requests</title><p>requests</p>")
    workspace.ok("goto", url)
    return url


def test_network_lines_are_numbered_in_order(workspace: Workspace, page: str) -> None:
    workspace.ok("js", "await fetch('/req/long.txt').then(r => r.text()).then(t => t.length)")
    first = numbered(workspace, "/req/page")
    second = numbered(workspace, "/req/long.txt")
    assert second > first >= 1


def test_a_post_with_a_json_body_shows_both_bodies_and_masks_the_cookie(
    workspace: Workspace, page: str
) -> None:
    workspace.ok("js", "document.cookie = 'theme=dark-secret-cookie'")
    workspace.ok(
        "js",
        "await fetch('/req/api', {method: 'POST', headers: {'Content-Type': 'application/json',"
        " Authorization: 'Bearer tok-123456'}, body: JSON.stringify({name: 'widget'})}).then(r => r.status)",
    )
    n = numbered(workspace, "/req/api")
    out = strip_fence(workspace.ok("request", str(n)))
    assert out.splitlines()[0].startswith(f"#{n} POST ") and "/req/api → 201 Created" in out
    assert "timing: dns " in out and " total " in out
    assert 'request body (application/json, 17 bytes):\n  {"name":"widget"}' in out
    assert '"got": {"name": "widget"}' in out and "response body (application/json" in out
    assert "tok-123456" not in out and "dark-secret-cookie" not in out and "s3cr3t-value" not in out
    assert "authorization: (masked, " in out.lower() and "set-cookie: (masked, " in out.lower()
    shown = strip_fence(workspace.ok("request", str(n), "--secrets"))
    assert (
        "Bearer tok-123456" in shown and "sid=s3cr3t-value" in shown and "theme=dark-secret-cookie" in shown
    )


def test_a_binary_body_is_saved_to_a_file_in_the_workspace(workspace: Workspace, page: str) -> None:
    workspace.ok("js", "await fetch('/req/pixel.png').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    n = numbered(workspace, "/req/pixel.png")
    result = workspace.run("--json", "request", str(n))
    data = result.json["data"]
    assert isinstance(data, dict), result.out
    [saved] = data["saved"]
    assert Path(saved).read_bytes() == PNG
    assert Path(saved).parent == workspace.root.resolve() / "responses"
    assert f"binary, saved to {saved}" in str(result.json["output"])


def test_a_long_text_body_is_cut_inline_and_saved_whole(workspace: Workspace, page: str) -> None:
    workspace.ok("js", "await fetch('/req/long.txt?again').then(r => r.text()).then(t => t.length)")
    n = numbered(workspace, "/req/long.txt?again")
    out = strip_fence(workspace.ok("request", str(n)))
    assert "first 4000 characters; all of it in " in out
    assert len(out) < 8_000
    saved = re.search(r"all of it in (\S+):", out)
    assert saved and Path(saved.group(1)).read_text() == "line of text\n" * 2_000


def test_a_50_mb_body_is_not_read_into_the_answer(workspace: Workspace, page: str) -> None:
    workspace.ok("js", "await fetch('/req/huge.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    n = numbered(workspace, "/req/huge.bin")
    out = strip_fence(workspace.ok("request", str(n)))
    assert f"{BIG} bytes): over the 20 MB `request` reads, left in the browser" in out
    assert "browse download " in out and len(out) < 4_000


def test_a_number_not_held_fails_with_the_way_to_find_one(workspace: Workspace, page: str) -> None:
    result = workspace.run("request", "99999")
    assert result.code == 1
    assert "no request #99999: the newest is #" in result.err and "browse network" in result.err
    assert workspace.run("request", "0").code == 2


def test_a_body_the_page_read_as_a_blob_is_said_to_be_gone(workspace: Workspace, page: str) -> None:
    workspace.ok("js", "await fetch('/req/pixel.png?blob').then(r => r.blob()).then(b => b.size)")
    n = numbered(workspace, "/req/pixel.png?blob")
    out = strip_fence(workspace.ok("request", str(n)))
    assert f"(image/png, {len(PNG)} bytes): not kept by the browser; save it with `browse download " in out
