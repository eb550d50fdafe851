"""A bare DevTools client for tests: the targets of a browser started with a debugging port, and
`Runtime.evaluate` in one of them.

The headed tests look at the extension from outside the daemon with it: its
service workers, its side panel and the frame inside it, which Playwright does
not hand out as pages.
"""

from __future__ import annotations

import asyncio
import http.client
import json
from typing import Any

import aiohttp


def targets(port: int) -> list[dict[str, Any]]:
    conn = http.client.HTTPConnection("::1", port, timeout=10)  # where Chromium listens here
    try:
        conn.request("GET", "/json/list")
        found = json.loads(conn.getresponse().read())
    finally:
        conn.close()
    assert isinstance(found, list)
    return found


def evaluate(target: dict[str, Any], expression: str) -> Any:
    """The value of `expression` (awaited if it is a promise) in `target`."""
    return asyncio.run(_evaluate(str(target["webSocketDebuggerUrl"]), expression))


async def _evaluate(url: str, expression: str) -> Any:
    params = {"expression": expression, "awaitPromise": True, "returnByValue": True}
    async with aiohttp.ClientSession() as client, client.ws_connect(url, max_msg_size=0) as ws:
        await ws.send_json({"id": 1, "method": "Runtime.evaluate", "params": params})
        async for message in ws:
            reply = json.loads(message.data)
            if reply.get("id") == 1:
                result = reply.get("result", {})
                if "exceptionDetails" in result:
                    raise AssertionError(f"{expression!r} threw: {result['exceptionDetails']}")
                return result.get("result", {}).get("value")
    raise AssertionError("the target closed before it answered")
