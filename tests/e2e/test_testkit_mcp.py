"""`audit` and `vitals` are MCP tools of their own and answer as the CLI does."""

from __future__ import annotations

import asyncio

import pytest
from test_mcp import _stdio, ok

from conftest import Site, Workspace

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="en"><title>mcp</title><main><h1>Big heading</h1>
<button><svg width="8" height="8"></svg></button></main>"""


def test_audit_and_vitals_over_mcp(workspace: Workspace, site: Site) -> None:
    url = site.page("/testkit-mcp/page", PAGE)

    async def scenario() -> None:
        async with _stdio(workspace) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "audit" in names and "vitals" in names
            await ok(client, "goto", {"url": url})
            audit = await ok(client, "audit", {})  # a notice may follow the fence over MCP
            assert "critical button-name" in audit and "@e" in audit
            vitals = await ok(client, "vitals", {})
            assert "LCP " in vitals and "CLS " in vitals

    asyncio.run(scenario())
