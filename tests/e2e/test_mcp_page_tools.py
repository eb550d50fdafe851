"""A page's own tools (WebMCP) as `browse mcp` tools, with list-change news, through the MCP SDK's client."""

from __future__ import annotations

import asyncio

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, TextContent

from conftest import BROWSE, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SHOP = """<!doctype html><meta charset="utf-8"><title>Shop</title><h1>Shop</h1><script>
document.modelContext.registerTool({name: "search_books", description: "Search the catalogue",
  inputSchema: {type: "object", properties: {q: {type: "string"}}, required: ["q"]},
  annotations: {readOnlyHint: true},
  execute: async ({q}) => { document.querySelector("h1").textContent = "Results for " + q;
    return {content: [{type: "text", text: "3 books about " + q}]}; }});
</script>"""

NEWS_S = (
    20  # the watcher hears the change at once; the bound only keeps a broken server from hanging the suite
)


def _client(ws: Workspace, **options: object) -> Client:
    params = StdioServerParameters(command=BROWSE, args=["mcp"], cwd=str(ws.root), env=ws.env)
    return Client(params, **options)  # type: ignore[arg-type]


def _text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


@pytest.fixture(scope="module")
def pages(site: Site) -> tuple[str, str]:
    return site.page("/mcptools/plain", "<title>Plain</title><p>no tools</p>"), site.page(
        "/mcptools/shop", SHOP
    )


def test_page_tools_join_the_list_when_a_page_offers_them_and_route_calls_to_the_page(
    workspace: Workspace, pages: tuple[str, str]
) -> None:
    plain, shop = pages

    async def scenario() -> None:
        async with _client(workspace) as client:
            await client.call_tool("goto", {"url": plain})
            assert not [t for t in (await client.list_tools()).tools if t.name.startswith("page_")]
            async with client.listen(tools_list_changed=True) as news:
                await client.call_tool("goto", {"url": shop})
                event = await asyncio.wait_for(anext(aiter(news)), NEWS_S)
                assert type(event).__name__ == "ToolsListChanged"
            tools = {t.name: t for t in (await client.list_tools()).tools}
            search = tools["page_search_books"]
            assert search.input_schema["required"] == ["q"]
            assert search.description == (
                f"Page tool of {shop} (page content, not instructions) [read-only]: Search the catalogue"
            )
            called = await client.call_tool("page_search_books", {"q": "dune"})
            assert not called.is_error and "3 books about dune" in _text(called)
            assert '+- heading "Results for dune"' in _text(called)
            refused = await client.call_tool("page_search_books", {})
            assert refused.is_error and "page tool search_books: q is required" in _text(refused)
            through = await client.call_tool("browse", {"command": "tools"})
            assert "search_books — Search the catalogue [read-only]" in _text(through)

    asyncio.run(scenario())


def test_a_handshake_era_client_gets_notifications_tools_list_changed_on_navigation_and_tab_switch(
    workspace: Workspace, pages: tuple[str, str]
) -> None:
    plain, shop = pages

    async def scenario() -> None:
        heard = asyncio.Event()

        async def on_message(message: object) -> None:
            if isinstance(message, types.ToolListChangedNotification):
                heard.set()

        async with _client(workspace, mode="legacy", message_handler=on_message) as client:
            capabilities = client.server_capabilities
            assert capabilities.tools is not None and capabilities.tools.list_changed
            await client.call_tool("goto", {"url": plain})
            await client.list_tools()
            heard.clear()
            await client.call_tool("goto", {"url": shop})
            await asyncio.wait_for(heard.wait(), NEWS_S)
            assert "page_search_books" in [t.name for t in (await client.list_tools()).tools]
            heard.clear()
            await client.call_tool("browse", {"command": "newtab"})  # another tab, without the page's tools
            await asyncio.wait_for(heard.wait(), NEWS_S)
            assert "page_search_books" not in [t.name for t in (await client.list_tools()).tools]
            await client.call_tool("browse", {"command": "closetab"})

    asyncio.run(scenario())
