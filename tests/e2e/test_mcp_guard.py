"""MCP gives the model no more than a direct call would: every step of a chain
is checked like a command on its own, `connect --cdp` needs the user's consent,
and short calls keep answering while many long waits run."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import anyio
import pytest
from test_mcp import _stdio, ok, text_of

from conftest import Site, Workspace
from refbrowse.mcp.tools import LONG_TAIL_TOOL

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_a_chain_over_mcp_carries_no_permission_flag_and_no_remote_browser(
    workspace: Workspace, site: Site, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.png"
    page = site.page("/mcp-guard", "<p>guard</p>")

    async def scenario() -> None:
        async with _stdio(workspace) as client:
            for step in (
                ["goto", "file:///etc/passwd", "--allow-file"],
                ["screenshot", str(outside), "--allow-path", str(tmp_path)],
                ["connect", "--cdp", "http://127.0.0.1:9/"],
            ):
                steps = json.dumps([["goto", page], step])
                refused = await client.call_tool(LONG_TAIL_TOOL, {"command": "chain", "input": steps})
                assert refused.is_error and "not available over MCP" in text_of(refused), text_of(refused)
            direct = await client.call_tool(LONG_TAIL_TOOL, {"command": "connect --cdp http://127.0.0.1:9/"})
            assert direct.is_error and "BROWSE_MCP_ALLOW_CONNECT=1" in text_of(direct)
            assert "passwd" not in await ok(client, LONG_TAIL_TOOL, {"command": "url"})

    asyncio.run(scenario())
    assert not outside.exists()


def test_a_short_call_answers_while_45_long_waits_run(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/mcp-waits", "<p>waiting</p>"))

    async def scenario() -> None:
        async with _stdio(workspace) as client, anyio.create_task_group() as group:
            waits = [0]

            async def wait_long() -> None:
                await client.call_tool("wait", {"sel_or_ms": "20000"})
                waits[0] += 1

            for _ in range(45):
                group.start_soon(wait_long)
            await anyio.sleep(2)
            with anyio.fail_after(15):
                assert "refbrowse" in await ok(client, LONG_TAIL_TOOL, {"command": "version"})
            assert waits[0] == 0  # the short call did not wait for a long one to end
            group.cancel_scope.cancel()

    asyncio.run(scenario())
