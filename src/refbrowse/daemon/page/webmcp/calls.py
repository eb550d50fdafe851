"""Calls to page tools: started, waited for within a bound, left running, fetched or cancelled.

A call is a DevTools invocation whose answer is a `toolResponded` event. A
declarative tool's form is filled by the browser and then waits for its
submission: refbrowse, acting for the person, submits it as its button would
(unless the form submits itself). A call that outlives its bound is either
cancelled or, asked to, left running under a short number that `tool-result`
and `tool-cancel` take.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.page.webmcp.listing import one_line
from refbrowse.daemon.page.webmcp.model import PageTool
from refbrowse.errors import ActionTimeout, PageError

KEPT_MAX = 50  # calls left running (or finished and not yet fetched) kept per daemon
SLICE_S = 1.0  # how often a running call's frame is looked at
GONE = "its frame navigated away or was removed before it answered"


@dataclass(slots=True)
class ToolCall:
    tool: PageTool
    invocation: str
    done: asyncio.Future[dict[str, Any]]
    url: str  # the page's URL when the call started: where its output comes from
    document: str  # the loader id of the frame's document when the call started ("" if unknown)
    number: int = 0  # set when the call is left running
    started: float = field(default_factory=time.monotonic)

    async def outcome(self, timeout_s: float) -> dict[str, Any] | None:
        """The `toolResponded` event's fields, or None if the call is still running after `timeout_s`.

        Looked at in slices: a call whose document was replaced or whose frame went away
        will never answer, and says so at once instead of at the end of its time.
        """
        deadline = time.monotonic() + max(timeout_s, 0.0)
        while True:
            left = deadline - time.monotonic()
            try:
                return await asyncio.wait_for(asyncio.shield(self.done), max(min(left, SLICE_S), 0.0))
            except TimeoutError:
                if left <= SLICE_S:
                    return None
            # a form tool's own submission replaces its document: that is its answer, not its loss
            if self.document and self.tool.form is None and await _document(self.tool) != self.document:
                self.tool.source.pending.pop(self.invocation, None)
                return {"status": "Error", "errorText": GONE}

    async def cancel(self) -> None:
        self.tool.source.pending.pop(self.invocation, None)
        if not self.done.done():
            self.done.set_result({"status": "Canceled", "errorText": "cancelled by refbrowse"})
        with contextlib.suppress(PlaywrightError):  # the frame is gone, and the call with it
            await self.tool.source.cancel(self.invocation)


async def start(tool: PageTool, given: dict[str, Any], url: str) -> ToolCall:
    document = await _document(tool)
    invocation, done = await tool.source.invoke(tool, given)
    call = ToolCall(tool, invocation, done, url, document)
    if tool.form is not None and "autosubmit" not in tool.annotations:
        await _submit(tool)
    return call


async def _document(tool: PageTool) -> str:
    """The loader id of the document in the tool's frame now; "" when the frame is gone."""
    try:
        tree = await tool.source.cdp.send("Page.getFrameTree")
    except PlaywrightError:
        return ""
    stack = [tree.get("frameTree", {})]
    while stack:
        node = stack.pop()
        frame = node.get("frame", {})
        if frame.get("id") == tool.frame_id:
            return str(frame.get("loaderId", ""))
        stack += node.get("childFrames", [])
    return ""


async def _submit(tool: PageTool) -> None:
    cdp = tool.source.cdp
    found = await cdp.send("DOM.resolveNode", {"backendNodeId": tool.form})
    target = found.get("object", {}).get("objectId")
    if target:
        await cdp.send(
            "Runtime.callFunctionOn", {"objectId": target, "functionDeclaration": script("submit_tool_form")}
        )
        with contextlib.suppress(PlaywrightError):  # a form that navigated took its document along
            await cdp.send("Runtime.releaseObject", {"objectId": target})


@dataclass(slots=True)
class OneCall:
    """One `tool` command's call, as the action it runs leaves it: answered, left running, or raised."""

    tool: PageTool
    given: dict[str, Any]
    url: str  # of the frame that offers the tool: where its output comes from
    started: ToolCall | None = None
    result: dict[str, Any] | None = None
    number: int = 0  # the number it was left running under

    async def run(self, timeout_ms: int, keep: Callable[[ToolCall], int] | None) -> None:
        """Call the tool and wait up to `timeout_ms`; then `keep` it running, or cancel it."""
        try:
            self.started = await start(self.tool, self.given, self.url)
        except PlaywrightError as exc:
            raise PageError(
                f"page tool {self.tool.name} could not be called: {one_line(exc.message, 200)}",
                "see the page's tools now: `browse tools`",
            ) from exc
        self.result = await self.started.outcome(timeout_ms / 1000)
        if self.result is not None:
            return
        if keep is not None:
            self.number = keep(self.started)
            return
        await self.started.cancel()
        raise ActionTimeout(
            f"page tool {self.tool.name} did not answer within {timeout_ms} ms: the call was cancelled",
            "give it longer with `--timeout MS`, or leave it running with `--detach`",
        )


class RunningCalls:
    """Calls left running (`tool --detach`), by number, until fetched once finished, or cancelled."""

    def __init__(self) -> None:
        self._calls: dict[int, ToolCall] = {}
        self._numbers = itertools.count(1)

    def keep(self, call: ToolCall) -> int:
        if len(self._calls) >= KEPT_MAX:
            self._calls.pop(next(iter(self._calls)))
        call.number = next(self._numbers)
        self._calls[call.number] = call
        return call.number

    def get(self, number: int) -> ToolCall | None:
        return self._calls.get(number)

    def forget(self, number: int) -> None:
        self._calls.pop(number, None)

    def numbers(self) -> list[int]:
        return list(self._calls)
