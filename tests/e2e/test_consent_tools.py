"""The consent gate on tools: a page tool its page marks consequential is held, and over
MCP a held action is put to the person through elicitation.

The official SDK client in its default mode (protocol 2026-07-28: the call answers
with an InputRequiredResult carrying the form, the retry carries the answer) and
in legacy mode (the 2025-06-18 back-channel): yes runs it, no drops it, nothing
is left held. A client without elicitation gets the held line and its id.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ElicitRequestParams, ElicitResult, TextContent
from test_consent import _held_id, gate, gated, hits

from conftest import BROWSE, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["gate", "gated"]  # the fixtures shared with test_consent.py (gated stands on gate)


TOOLS = """<!doctype html><meta charset="utf-8"><title>Tools</title><h1>Tools</h1><script>
const mc = document.modelContext;
mc.registerTool({name: "empty_cart", description: "Empty the cart", annotations: {consequentialHint: true},
  execute: () => { document.querySelector("h1").textContent = "Cart emptied"; return "emptied"; }});
mc.registerTool({name: "count_items", description: "Count the items", annotations: {readOnlyHint: true},
  execute: () => "3 items"});
</script>"""


def test_a_page_tool_its_page_marks_consequential_is_held_as_destructive(
    fresh_workspace: Workspace, site: Site
) -> None:
    fresh_workspace.env.update(BROWSE_CONFIRM="destructive", BROWSE_PERSIST="0")
    fresh_workspace.ok("goto", site.page("/cg/tools", TOOLS))
    assert "3 items" in fresh_workspace.ok("tool", "count_items")  # a plain tool is not held
    held = fresh_workspace.run("tool", "empty_cart")
    assert held.code == 5 and "tool empty_cart (its page marks it consequential) on 127.0.0.1:" in held.err
    assert "Cart emptied" not in fresh_workspace.ok("text", "h1")
    done = fresh_workspace.ok("confirm", _held_id(held.err))
    assert "Called page tool empty_cart" in done and "emptied" in done


def test_an_mcp_client_with_elicitation_asks_its_person_and_one_without_gets_the_id(
    gated: Workspace,
) -> None:
    asked: list[str] = []

    def client(answer: bool, mode: str) -> Client:
        async def elicit(context: object, params: ElicitRequestParams) -> ElicitResult:
            asked.append(params.message)
            return ElicitResult(action="accept", content={"approve": answer})

        server = StdioServerParameters(command=BROWSE, args=["mcp"], cwd=str(gated.root), env=gated.env)
        return Client(server, elicitation_callback=elicit, mode=mode)

    def said(result: CallToolResult) -> str:
        return "\n".join(c.text for c in result.content if isinstance(c, TextContent))

    async def scenario() -> None:
        # "auto" (the SDK default) asks via InputRequiredResult, "legacy" via the 2025-06-18 back-channel
        for mode in ("auto", "legacy"):
            hits.clear()
            async with client(False, mode) as declining:
                result = await declining.call_tool("click", {"sel": "text=Delete account"})
                assert result.is_error and "The person declined: it did not run" in said(result), said(result)
            assert hits == [] and '"Delete account" → POST /cg/delete' in asked.pop(), mode
            async with client(True, mode) as approving:
                result = await approving.call_tool("click", {"sel": "text=Delete account"})
                assert not result.is_error and "Account deleted" in said(result), (mode, said(result))
            assert hits == ["/cg/delete"] and asked.pop(), mode
            gated.ok("back")  # to the form again
        assert "Nothing is held for consent" in gated.ok("confirm")  # no second copy left held behind
        plain_server = StdioServerParameters(command=BROWSE, args=["mcp"], cwd=str(gated.root), env=gated.env)
        async with Client(plain_server) as plain:
            result = await plain.call_tool("click", {"sel": "text=Go"})
            assert (
                result.is_error and "held for consent [" in said(result) and "browse confirm" in said(result)
            )

    with ThreadPoolExecutor(1) as apart:  # the activity test's sync Playwright keeps a loop in this thread
        apart.submit(asyncio.run, scenario()).result()
