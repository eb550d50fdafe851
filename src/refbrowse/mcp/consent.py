"""An action held for consent, asked of the person through the MCP client (elicitation, spec 2025-06-18).

A tool call whose command the daemon's consent gate held (exit 5, "held for
consent [ID]") is, when the client declared elicitation, put to the person as
a yes/no form: yes runs `confirm ID`, no or a dismissed form runs `deny ID`.
Clients without elicitation get the held line as it is, with its id, and
answer with the `confirm` tool as an agent on the CLI would.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, TextContent

log = logging.getLogger("refbrowse")
HELD = re.compile(r"held for consent \[([0-9a-f]{6})\]: ([^\n]*)")
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {"type": "boolean", "title": "Run it", "description": "yes runs it as held; no drops it"}
    },
    "required": ["approve"],
}


def _text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


async def ask_person(ctx: Any, result: CallToolResult, run: Any) -> CallToolResult:
    """`result`, or when it is a held action and the client can ask its person, what they answered.

    `run(argv)` runs a `browse` argv (blocking) and gives its result."""
    found = HELD.search(_text(result)) if result.is_error else None
    capabilities = getattr(ctx.session, "client_capabilities", None)
    if found is None or capabilities is None or capabilities.elicitation is None:
        return result
    held_id, said = found.group(1), found.group(2)
    try:
        answer = await ctx.session.elicit_form(
            f"The browser agent wants to: {said}. Run it?", SCHEMA, related_request_id=ctx.request_id
        )
    except (MCPError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:  # the id stands
        log.info("mcp: elicitation failed (%s); the held id is returned", exc)
        return result
    approve = answer.action == "accept" and bool((answer.content or {}).get("approve"))
    outcome: CallToolResult = await anyio.to_thread.run_sync(run, ["confirm" if approve else "deny", held_id])
    if approve:
        return outcome
    said_no = f"The person declined: it did not run.\n{_text(outcome)}"
    return CallToolResult(content=[TextContent(text=said_no)], is_error=True)
