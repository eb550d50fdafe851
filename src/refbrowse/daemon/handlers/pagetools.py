"""The page's own tools (WebMCP): tools, tool, tool-result, tool-cancel.

`tools` lists what the page offers in every frame; `tool` checks its input
against the tool's schema, calls it within the action timeout through the
one path every action takes (`perform`: it settles, then reports what the
call changed on the page), and prints the tool's result as page content. A
call that outlives the timeout is cancelled, or with `--detach` left running
under a number for `tool-result` and `tool-cancel`.
"""

from __future__ import annotations

import json
import time
from typing import Any

from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.page.webmcp.arguments import check_input, parse_input
from refbrowse.daemon.page.webmcp.calls import OneCall, ToolCall
from refbrowse.daemon.page.webmcp.listing import (
    JSON_TOOLS,
    RESULT_MAX,
    TOOLS_SHOWN,
    failed,
    one_line,
    output_text,
    structured,
    tool_lines,
    tool_record,
)
from refbrowse.daemon.page.webmcp.model import TOOLS_MAX, PageTool
from refbrowse.daemon.page.webmcp.watch import TabTools
from refbrowse.errors import PageError

_NONE = (
    "no page tools here (a page offers them with document.modelContext.registerTool or <form toolname=...>)"
)


@handler("tools")
async def tools(call: Call) -> str:
    state = await call.services.page_tools.of(call.tab)
    listed = await state.current(call.page)
    text = _listing(call, state, listed)
    if not call.json:
        return text
    records = [tool_record(t, state.frame_urls, state.main_frame) for t in listed[:JSON_TOOLS]]
    return Reply(text, {"tools": records, "url": call.page.url})


def _listing(call: Call, state: TabTools, listed: list[PageTool]) -> str:
    if not listed:
        return _NONE
    count = len(listed) + state.over
    head = f"{count} page tool{'s' * (count != 1)}: `browse tool NAME key=value ...` calls one"
    lines = [
        head,
        fence("\n".join(tool_lines(listed, state.frame_urls, state.main_frame)), call.page.url, call.raw),
    ]
    if len(listed) > TOOLS_SHOWN:
        lines.append(
            f"… {len(listed) - TOOLS_SHOWN} more not shown (`browse tools --json` lists up to {JSON_TOOLS})"
        )
    if state.over:
        lines.append(f"the page registered {state.over} more beyond the {TOOLS_MAX} kept")
    return "\n".join(lines)


async def _find(call: Call, name: str) -> tuple[PageTool, str]:
    """The tool named `name` (the main frame's first), and the URL of the frame that offers it."""
    state = await call.services.page_tools.of(call.tab)
    listed = await state.current(call.page)
    for tool in listed:
        if tool.name == name:
            main = tool.frame_id == state.main_frame
            return tool, call.page.url if main else state.frame_urls.get(tool.frame_id, call.page.url)
    names = ", ".join(one_line(t.name, 40) for t in listed[:12]) or "none"
    raise PageError(
        f"no page tool named {one_line(name, 80)!r} on this page", f"its tools: {names} (`browse tools`)"
    )


@handler("tool")
async def tool(call: Call) -> str:
    found, url = await _find(call, call.args[0])
    given = parse_input(found, [str(word) for word in call.args[1:]])
    unchecked = check_input(found, given)
    gate = call.services.page_tools.gate
    if gate is not None:
        await gate.before_call(call.session, found, given)
    running = OneCall(found, given, url)
    keep = call.services.page_tools.running.keep if call.flag("--detach") else None
    outcome = await perform(
        call, f"calling page tool {found.name}", lambda: running.run(call.action_timeout_ms, keep)
    )
    if running.result is None:
        first = _still_running(found, running.number, call.action_timeout_ms)
        outcome.fields["running"] = running.number
        return outcome.report(first)
    text, data = _result(found, running.result, url, call.raw)
    outcome.fields.update({"tool": found.name, "result": data})
    notes = [f"(input not checked: {unchecked})"] if unchecked else []
    return outcome.report("\n".join([f"Called page tool {found.name}", *notes, text]))


def _still_running(tool: PageTool, number: int, waited_ms: int) -> str:
    return (
        f"page tool {tool.name} is still running after {waited_ms} ms: call {number}"
        f" (`browse tool-result {number}` fetches its result, `browse tool-cancel {number}` stops it)"
    )


def _result(tool: PageTool, params: dict[str, Any], url: str, raw: bool) -> tuple[str, object]:
    """The call's result as fenced text, and as data; a call that failed raises `PageError`."""
    status = params.get("status")
    if status == "Canceled":
        raise PageError(f"page tool {tool.name} was cancelled", "call it again: `browse tool ...`")
    if status != "Completed":
        raise PageError(f"page tool {tool.name} failed: {_error_line(params)}", _FAILED_HINT)
    output = params.get("output")
    text = output_text(output)
    if failed(output):
        raise PageError(f"page tool {tool.name} reported an error: {one_line(text, 200)}", _FAILED_HINT)
    shown = fence(text, url, raw) if text else "(no output)"
    return shown, _bounded_data(structured(output))


_FAILED_HINT = "check its input (`browse tools`) and the page's console (`browse console --errors`)"


def _error_line(params: dict[str, Any]) -> str:
    exception = params.get("exception")
    described = exception.get("description") if isinstance(exception, dict) else None
    text = described if isinstance(described, str) and described else str(params.get("errorText") or "")
    first = text.strip().splitlines()[0] if text.strip() else "no reason given"
    return one_line(first, 200)


def _bounded_data(value: object) -> object:
    try:
        size = len(json.dumps(value))
    except (ValueError, RecursionError):
        return None
    return (
        value if size <= RESULT_MAX else {"cut": f"the result is {size:,} characters of JSON: see the text"}
    )


async def _running_call(call: Call) -> ToolCall:
    number = int(call.args[0])
    found = call.services.page_tools.running.get(number)
    if found is None:
        known = ", ".join(str(n) for n in call.services.page_tools.running.numbers()) or "none"
        raise PageError(f"no page tool call {number} left running", f"the calls kept: {known}")
    return found


WAIT_S = 25.0  # a watcher's long wait: well inside any proxy's idle limit
SLICE_S = 1.0


@handler("tools-wait")
async def tools_wait(call: Call) -> str:
    state = await call.services.page_tools.of(call.tab)
    mark = f"{call.tab.id}:{state.version}"
    asked = call.arg(0)
    if asked == mark:
        version, deadline = state.version, time.monotonic() + WAIT_S
        # in slices: another tab made current (`tab N`, a popup) is news too
        while state.version == version and call.session.current is call.tab and time.monotonic() < deadline:
            await state.changed(version, SLICE_S)
        tab = call.session.current or call.tab
        mark = f"{tab.id}:{(await call.services.page_tools.of(tab)).version}"
    changed = mark != asked
    text = f"{mark} {'changed' if changed else 'unchanged'}"
    return Reply(text, {"mark": mark, "changed": changed}) if call.json else text


@handler("tool-result")
async def tool_result(call: Call) -> str:
    running = await _running_call(call)
    result = await running.outcome(call.action_timeout_ms / 1000)
    if result is None:
        text = _still_running(running.tool, running.number, call.action_timeout_ms)
        return Reply(text, {"running": running.number}) if call.json else text
    call.services.page_tools.running.forget(running.number)
    text, data = _result(running.tool, result, running.url, call.raw)
    first = f"page tool {running.tool.name} (call {running.number}) answered"
    return (
        Reply(f"{first}\n{text}", {"tool": running.tool.name, "result": data})
        if call.json
        else f"{first}\n{text}"
    )


@handler("tool-cancel")
async def tool_cancel(call: Call) -> str:
    running = await _running_call(call)
    call.services.page_tools.running.forget(running.number)
    if running.done.done():
        return (
            f"page tool call {running.number} ({running.tool.name}) had already ended; its result is dropped"
        )
    await running.cancel()
    return f"cancelled page tool call {running.number} ({running.tool.name})"
