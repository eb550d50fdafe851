"""A Chrome performance profile of a tab through DevTools' Tracing domain.

The categories are those DevTools' Performance panel records, so the file it
writes (trace-event JSON, `{"traceEvents": [...]}`) opens there and in Perfetto
with the main thread's tasks, frames, layout, paint and JavaScript samples.

Chromium records into a buffer of the recording limit's size
(`recording.limits`) until it is full, then drops what comes after: a long
profile of a busy page keeps its beginning, and `profile stop` says the rest
was left out. The trace is read back in parts straight into a file.
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.services.recording.limits import Limits
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
BUFFER_SHARE = 2  # the trace's JSON is about twice the size of what Chromium's buffer holds
_EVENT = b'"ph":'


@dataclass(frozen=True, slots=True)
class Profiled:
    events: int  # trace events written (counted as they stream by)
    lost: bool  # Chromium's buffer filled: what came after it was dropped


@dataclass
class ProfileRun:
    """A tab's trace being recorded by Chromium until `stop` reads it back."""

    page: Page
    cdp: CDPSession
    started: float = field(default_factory=time.time)

    @classmethod
    async def start(cls, page: Page) -> ProfileRun:
        cdp = await page.context.new_cdp_session(page)
        config = {
            "includedCategories": CATEGORIES,
            "excludedCategories": ["*"],
            "recordMode": "recordUntilFull",
            "traceBufferSizeInKb": max(Limits.from_env().bytes // BUFFER_SHARE // 1024, 1024),
        }
        try:
            await cdp.send("Tracing.start", {"traceConfig": config, "transferMode": "ReturnAsStream"})
        except PlaywrightError as exc:
            await cdp.detach()
            raise PageError(
                f"Chromium did not start tracing: {exc.message}", "stop any other profile first"
            ) from exc
        return cls(page, cdp)

    async def stop(self, scratch: str) -> Profiled:
        """Write the trace's JSON into the new file `scratch`, in parts."""
        complete: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def completed(params: dict[str, Any]) -> None:
            if not complete.done():
                complete.set_result(params)

        self.cdp.on("Tracing.tracingComplete", completed)
        try:
            await self.cdp.send("Tracing.end")
            done = await asyncio.wait_for(complete, COMPLETE_TIMEOUT_S)
            events = await self._read(str(done["stream"]), scratch)
            return Profiled(events, bool(done.get("dataLossOccurred")))
        except (PlaywrightError, TimeoutError) as exc:
            raise PageError(
                f"the profile could not be read back: {exc}", "keep the tab open until `profile stop`"
            ) from exc
        finally:
            await self.discard()

    async def _read(self, stream: str, scratch: str) -> int:
        events, tail = 0, b""
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as out:
            while True:
                part = await self.cdp.send("IO.read", {"handle": stream, "size": 1 << 20})
                data = part.get("data", "")
                chunk = base64.b64decode(data) if part.get("base64Encoded") else data.encode()
                events += (tail + chunk).count(_EVENT)
                tail = chunk[-(len(_EVENT) - 1) :]
                await asyncio.to_thread(out.write, chunk)
                if part.get("eof"):
                    break
        await self.cdp.send("IO.close", {"handle": stream})
        return events

    async def discard(self) -> None:
        with suppress(PlaywrightError):  # the tab is gone, and its session with it
            await self.cdp.detach()
