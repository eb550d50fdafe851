"""`browse mcp` driven by the MCP SDK's own client over stdio and HTTP, with a real daemon and Chromium."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, ImageContent, TextContent

from conftest import BROWSE, Site, Workspace, strip_fence
from refbrowse.mcp.tools import EVERYDAY, LONG_TAIL_TOOL, NOT_OVER_MCP, long_tail
from refbrowse.registry import COMMANDS

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

# @playwright/mcp 0.0.83's tools/list is 20,296 characters; ours must stay under a quarter of it.
PLAYWRIGHT_MCP_TOOLS_CHARS = 20_296

SHOP = """<title>Shop</title><h1>Shop</h1>
<label>Name <input id="name"></label>
<select id="size"><option>small</option><option>large</option></select>
<button onclick="out.textContent = 'Added ' + document.querySelector('#name').value">
Add</button><p id="out">empty</p><a href="/mcp/other">Other page</a>"""


def _stdio(ws: Workspace, *args: str) -> Client:
    return Client(StdioServerParameters(command=BROWSE, args=["mcp", *args], cwd=str(ws.root), env=ws.env))


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


async def ok(client: Client, tool: str, arguments: dict[str, object]) -> str:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    return text_of(result)


def ref_of(snapshot: str, line_start: str) -> str:
    line = next(line for line in snapshot.splitlines() if line.strip().startswith(line_start))
    return next(word.rstrip(":,") for word in line.split() if word.startswith("@e"))


@pytest.fixture(scope="module")
def shop(site: Site) -> str:
    site.page("/mcp/other", "<title>Other</title><h1>Another page</h1>")
    return site.page("/mcp/shop", SHOP)


def test_the_tool_list_reaches_every_command_in_a_quarter_of_playwright_mcps_size(
    workspace: Workspace,
) -> None:
    async def scenario() -> None:
        async with _stdio(workspace) as client:
            tools = (await client.list_tools()).tools
            names = [t.name for t in tools]
            assert names == [*[n for n in EVERYDAY if n in COMMANDS], LONG_TAIL_TOOL]
            browse_tool = next(t for t in tools if t.name == LONG_TAIL_TOOL)
            for name in long_tail():
                assert name in (browse_tool.description or ""), name
            assert set(names[:-1]) | set(long_tail()) | set(NOT_OVER_MCP) == set(COMMANDS)
            listed = json.dumps([t.model_dump(by_alias=True, exclude_none=True) for t in tools])
            assert len(listed) <= PLAYWRIGHT_MCP_TOOLS_CHARS // 4, len(listed)
            fill = next(t for t in tools if t.name == "fill")
            assert fill.input_schema["required"] == ["sel", "text"]

    asyncio.run(scenario())


def test_navigate_snapshot_act_by_ref_and_read_the_effect(workspace: Workspace, shop: str) -> None:
    async def scenario() -> None:
        async with _stdio(workspace) as client:
            assert "Navigated" in await ok(client, "goto", {"url": shop})
            snap = await ok(client, "snapshot", {"i": True})
            body = strip_fence(snap)  # page text reaches the agent fenced, as in the CLI
            assert 'button "Add"' in body
            await ok(client, "fill", {"sel": ref_of(body, "- textbox"), "text": "Bob"})
            form = {
                "sel": ref_of(body, "- textbox"),
                "text": "Ada",
                "more": [ref_of(body, "- combobox"), "small"],
            }
            assert (await ok(client, "fill", form)).startswith("Filled 2 fields: ")  # a form in one call
            await ok(client, "select", {"sel": ref_of(body, "- combobox"), "value": ["large"]})
            clicked = await ok(client, "click", {"sel": ref_of(body, '- button "Add"')})
            assert clicked.startswith("Clicked") and 'button "Add"' not in clicked  # the effect, no snapshot
            assert strip_fence(await ok(client, "text", {"sel": "#out"})) == "Added Ada"
            assert "large" in await ok(
                client, LONG_TAIL_TOOL, {"command": "js \"document.querySelector('#size').value\""}
            )
            assert "Pressed Tab" in await ok(client, "press", {"key": "Tab"})

    asyncio.run(scenario())
    # The CLI sees the same browser, tab and page the MCP client left.
    assert workspace.ok("url").strip() == shop


def test_a_failure_is_an_error_result_with_its_hint(workspace: Workspace, shop: str) -> None:
    async def scenario() -> None:
        async with _stdio(workspace) as client:
            await ok(client, "goto", {"url": shop})
            stale = await client.call_tool("click", {"sel": "@e999"})
            assert stale.is_error
            assert text_of(stale).startswith("error: ") and "\nhint: " in text_of(stale)
            unknown = await client.call_tool(LONG_TAIL_TOOL, {"command": "gotoo x"})
            assert unknown.is_error and "did you mean `browse goto`" in text_of(unknown)
            bad_arg = await client.call_tool("click", {"sel": "#x", "bogus": 1})
            assert bad_arg.is_error and "unknown argument for click: bogus" in text_of(bad_arg)
            missing = await client.call_tool("fill", {"sel": "#name"})
            assert missing.is_error and "fill needs TEXT" in text_of(missing)
            assert "Navigated" in await ok(client, "goto", {"url": shop})  # still serving

    asyncio.run(scenario())


def test_a_screenshot_comes_back_as_an_image_and_a_path(workspace: Workspace, shop: str) -> None:
    async def scenario() -> None:
        async with _stdio(workspace) as client:
            await ok(client, "goto", {"url": shop})
            result = await client.call_tool("screenshot", {"viewport": True})
            assert not result.is_error, text_of(result)
            path = text_of(result).rsplit(" to ", 1)[1].strip()
            images = [c for c in result.content if isinstance(c, ImageContent)]
            assert len(images) == 1 and images[0].mime_type == "image/png"
            import base64

            assert base64.b64decode(images[0].data) == Path(path).read_bytes()

    asyncio.run(scenario())


def test_the_long_tail_tool_runs_chain_from_its_input_and_help(workspace: Workspace, shop: str) -> None:
    async def scenario() -> None:
        async with _stdio(workspace) as client:
            steps = json.dumps([["goto", shop], ["fill", "#name", "Bo"], ["click", "text=Add"]])
            out = await ok(client, LONG_TAIL_TOOL, {"command": "chain", "input": steps})
            assert "Clicked" in out
            assert "browse cookies" in await ok(client, LONG_TAIL_TOOL, {"command": "help cookies"})
            refused = await client.call_tool(LONG_TAIL_TOOL, {"command": "mcp --http"})
            assert refused.is_error and "not available over MCP" in text_of(refused)
            # Permissions are the user's, through the server's environment, never the model's.
            granted = await client.call_tool(
                LONG_TAIL_TOOL, {"command": "goto file:///etc/passwd --allow-file"}
            )
            assert granted.is_error and "BROWSE_ALLOW_FILE" in text_of(granted)
            tools = (await client.list_tools()).tools
            assert not any("allow" in prop for t in tools for prop in t.input_schema.get("properties", {}))

    asyncio.run(scenario())


def test_input_cookies_and_recording_reach_mcp_through_the_long_tail_tool(
    workspace: Workspace, site: Site
) -> None:
    async def scenario() -> None:
        async with _stdio(workspace) as client:
            await ok(client, "goto", {"url": site.url("/input/dnd.html")})
            dragged = await ok(client, LONG_TAIL_TOOL, {"command": "drag #card #done"})
            assert "Moved Write report to Done" in dragged
            await ok(client, LONG_TAIL_TOOL, {"command": "cookies set theme dark"})
            assert "theme=dark" in await ok(client, LONG_TAIL_TOOL, {"command": "cookies"})
            await ok(client, LONG_TAIL_TOOL, {"command": "trace start"})
            saved = await ok(client, LONG_TAIL_TOOL, {"command": f"trace stop {workspace.root / 'mcp.zip'}"})
            assert "show-trace" in saved and (workspace.root / "mcp.zip").is_file()

    asyncio.run(scenario())


def test_two_clients_at_once_on_two_sessions(workspace: Workspace, site: Site) -> None:
    first = site.page("/mcp/alice", "<title>Alice</title><p>a</p>")
    second = site.page("/mcp/bob", "<title>Bob</title><p>b</p>")

    async def one(session: str, url: str) -> str:
        async with _stdio(workspace, "--session", session) as client:
            await ok(client, "goto", {"url": url})
            await asyncio.sleep(0.2)  # let the other client navigate its own session meanwhile
            return await ok(client, LONG_TAIL_TOOL, {"command": "url"})

    async def scenario() -> list[str]:
        return list(await asyncio.gather(one("alice", first), one("bob", second)))

    assert [u.strip() for u in asyncio.run(scenario())] == [first, second]


# HTTP


@pytest.fixture(scope="module")
def http_server(workspace: Workspace) -> Iterator[dict[str, object]]:
    proc = subprocess.Popen(
        [BROWSE, "mcp", "--http"], cwd=workspace.root, env=workspace.env, stderr=subprocess.PIPE, text=True
    )
    info_path = workspace.state_dir / "mcp.json"
    deadline = time.monotonic() + 30
    while not info_path.exists():
        assert proc.poll() is None and time.monotonic() < deadline, "the HTTP server did not start"
        time.sleep(0.05)
    info = json.loads(info_path.read_text())
    assert oct(os.stat(info_path).st_mode & 0o777) == "0o600"
    yield info
    proc.terminate()
    proc.wait(timeout=30)
    assert not info_path.exists(), "the server removes its file when it stops"


@asynccontextmanager
async def _http(info: dict[str, object]) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {info['token']}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=120) as http,
        Client(streamable_http_client(str(info["url"]), http_client=http)) as client,
    ):
        yield client


def test_http_serves_the_same_tools_on_the_same_browser(
    workspace: Workspace, http_server: dict[str, object], shop: str
) -> None:
    async def scenario() -> None:
        async with _http(http_server) as client:
            assert LONG_TAIL_TOOL in [t.name for t in (await client.list_tools()).tools]
            await ok(client, "goto", {"url": shop})
            snap = strip_fence(await ok(client, "snapshot", {"i": True}))
            await ok(client, "fill", {"sel": ref_of(snap, "- textbox"), "text": "Cy"})
            await ok(client, "click", {"sel": ref_of(snap, '- button "Add"')})
            assert strip_fence(await ok(client, "text", {"sel": "#out"})) == "Added Cy"
            shot = await client.call_tool("screenshot", {"viewport": True})
            assert any(isinstance(c, ImageContent) for c in shot.content)
            assert (await client.call_tool("click", {"sel": "@e999"})).is_error

    asyncio.run(scenario())
    assert workspace.ok("url").strip() == shop


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer wrong"}, 401),
        ({"Host": "evil.example:80", "good_token": "1"}, 403),
        ({"Origin": "http://127.0.0.1", "good_token": "1"}, 403),
    ],
)
def test_http_refuses_no_token_a_wrong_token_and_foreign_host_or_origin(
    http_server: dict[str, object], headers: dict[str, str], status: int
) -> None:
    headers = dict(headers)
    if headers.pop("good_token", None):
        headers["Authorization"] = f"Bearer {http_server['token']}"
    hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    reply = httpx2.post(
        str(http_server["url"]),
        json=hello,
        headers={"Accept": "application/json, text/event-stream", **headers},
    )
    assert reply.status_code == status
    if status == 401:
        said = reply.json()
        assert "Authorization: Bearer TOKEN" in said["error"]
        assert '"token" of ' in said["hint"] and said["hint"].endswith("/.refbrowse/mcp.json"), said
        assert reply.headers["www-authenticate"].startswith("Bearer")


def test_http_on_a_port_in_use_fails_with_a_hint(workspace: Workspace) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = workspace.run("mcp", "--http", "--port", str(port), timeout=60)
    assert result.code == 3
    assert f"cannot listen on 127.0.0.1:{port}" in result.err and "hint: pick another --port" in result.err
