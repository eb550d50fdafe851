"""An action held for consent, asked of the person through the MCP client (elicitation).

A tool call whose command the daemon's consent gate held (exit 5, "held for
consent [ID]") is, when the client declared elicitation, put to the person as
a yes/no form: yes runs `confirm ID`, no or a dismissed form runs `deny ID`.
How the form travels follows the negotiated protocol: from 2026-07-28 the call
answers with an `InputRequiredResult` carrying the form and the held id as its
request state, and the client's retry (with the person's answer) runs confirm
or deny instead of the tool; before it (2025-06-18's back-channel) the server
sends `elicitation/create` mid-call. Clients without elicitation get the held
line as it is, with its id, and answer with the `confirm` tool as an agent on
the CLI would.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CallToolRequestParams,
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
)
from mcp_types.version import is_version_at_least

log = logging.getLogger("refbrowse")
HELD = re.compile(r"held for consent \[([0-9a-f]{6})\]: ([^\n]*)")
STATE = re.compile(r"consent:([0-9a-f]{6})")
INPUT_REQUIRED_VERSION = "2026-07-28"  # the first revision that asks through InputRequiredResult
KEY = "consent"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {"type": "boolean", "title": "Run it", "description": "yes runs it as held; no drops it"}
    },
    "required": ["approve"],
}
Run = Callable[[list[str]], CallToolResult]  # runs a `browse` argv (blocking) and gives its result


def _text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def _question(said: str) -> str:
    return f"The browser agent wants to: {said}. Run it?"


async def ask_person(ctx: Any, result: CallToolResult, run: Run) -> CallToolResult | InputRequiredResult:
    """`result`, or when it is a held action and the client can ask its person: the question
    (an `InputRequiredResult`, newer protocols) or what they answered (older ones)."""
    found = HELD.search(_text(result)) if result.is_error else None
    capabilities = getattr(ctx.session, "client_capabilities", None)
    if found is None or capabilities is None or capabilities.elicitation is None:
        return result
    held_id, said = found.group(1), found.group(2)
    version = str(getattr(ctx.session, "protocol_version", "") or "")
    if version and is_version_at_least(version, INPUT_REQUIRED_VERSION):
        form = ElicitRequestFormParams(message=_question(said), requested_schema=SCHEMA)
        return InputRequiredResult(
            input_requests={KEY: ElicitRequest(params=form)}, request_state=f"consent:{held_id}"
        )
    try:
        answer = await ctx.session.elicit_form(_question(said), SCHEMA, related_request_id=ctx.request_id)
    except (MCPError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:  # the id stands
        log.info("mcp: elicitation failed (%s); the held id is returned", exc)
        return result
    return await _answer(held_id, answer, run)


async def answered(params: CallToolRequestParams, run: Run) -> CallToolResult | None:
    """The outcome when this call is the client's retry carrying the person's answer, else None.

    The retry runs `confirm` or `deny` on the held id and never the tool again (which
    would hold a second copy). The state is the client's echo: it grants nothing the
    `confirm` tool does not, and an id that is not held is refused by the daemon."""
    state = STATE.fullmatch(params.request_state or "")
    if state is None:
        return None
    reply = (params.input_responses or {}).get(KEY)
    answer = reply if isinstance(reply, ElicitResult) else ElicitResult(action="cancel")
    return await _answer(state.group(1), answer, run)


async def _answer(held_id: str, answer: ElicitResult, run: Run) -> CallToolResult:
    """Run `confirm ID` on yes, `deny ID` on no or a dismissed form."""
    approve = answer.action == "accept" and (answer.content or {}).get("approve") is True
    outcome: CallToolResult = await anyio.to_thread.run_sync(run, ["confirm" if approve else "deny", held_id])
    if approve:
        return outcome
    said_no = f"The person declined: it did not run.\n{_text(outcome)}"
    return CallToolResult(content=[TextContent(text=said_no)], is_error=True)
