"""A Chrome performance profile of a tab through DevTools' Tracing domain.

The categories are those DevTools' Performance panel records, so the file it
writes (trace-event JSON, `{"traceEvents": [...]}`) opens there and in Perfetto
with the main thread's tasks, frames, layout, paint and JavaScript samples.
"""

from __future__ import annotations

import asyncio
import base64
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.errors import PageError

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame",
    "disabled-by-default-devtools.timeline.stack",
    "disabled-by-default-devtools.screenshot",
    "disabled-by-default-v8.cpu_profiler",
    "v8.execute",
    "toplevel",
    "blink.console",
    "blink.user_timing",
    "latencyInfo",
    "loading",
]
COMPLETE_TIMEOUT_S = 30.0


@dataclass
class ProfileRun:
    """A tab's trace being recorded by Chromium until `stop` reads it back."""

    page: Page
    cdp: CDPSession
    started: float = field(default_factory=time.time)

    @classmethod
    async def start(cls, page: Page) -> ProfileRun:
        cdp = await page.context.new_cdp_session(page)
        config = {"includedCategories": CATEGORIES, "excludedCategories": ["*"]}
        try:
            await cdp.send("Tracing.start", {"traceConfig": config, "transferMode": "ReturnAsStream"})
        except PlaywrightError as exc:
            await cdp.detach()
            raise PageError(
                f"Chromium did not start tracing: {exc.message}", "stop any other profile first"
            ) from exc
        return cls(page, cdp)

    async def stop(self) -> bytes:
        """The trace as JSON bytes."""
        complete: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def completed(params: dict[str, Any]) -> None:
            if not complete.done():
                complete.set_result(params)

        self.cdp.on("Tracing.tracingComplete", completed)
        try:
            await self.cdp.send("Tracing.end")
            done = await asyncio.wait_for(complete, COMPLETE_TIMEOUT_S)
            return await self._read(str(done["stream"]))
        except (PlaywrightError, TimeoutError) as exc:
            raise PageError(
                f"the profile could not be read back: {exc}", "keep the tab open until `profile stop`"
            ) from exc
        finally:
            await self.discard()

    async def _read(self, stream: str) -> bytes:
        chunks: list[bytes] = []
        while True:
            part = await self.cdp.send("IO.read", {"handle": stream, "size": 1 << 20})
            data = part.get("data", "")
            chunks.append(base64.b64decode(data) if part.get("base64Encoded") else data.encode())
            if part.get("eof"):
                break
        await self.cdp.send("IO.close", {"handle": stream})
        return b"".join(chunks)

    async def discard(self) -> None:
        with suppress(PlaywrightError):  # the tab is gone, and its session with it
            await self.cdp.detach()
