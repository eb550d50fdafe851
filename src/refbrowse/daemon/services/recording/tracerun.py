"""A Playwright trace in progress, and its limits.

Playwright writes a trace to its traces folder as it goes (`NAME.trace`,
`NAME.network`, page resources under `resources/`, screenshots under
`screencast/`), so a long trace of a busy page with `--screenshots` or
`--snapshots` grows on disk without end. A trace stops at the recording limits
(`recording.limits`: its bytes on disk, its time): the daemon stops it itself,
into the scratch file `trace stop` then writes, and `trace stop` and `status`
say so. The bytes are counted from the trace's own files and the resources and
screenshots written since it started (other sessions' traces share those
folders, so theirs may count too: the safe side). Where those files are not on
this machine (a Playwright server), only the time limit holds.
"""

from __future__ import annotations

import asyncio
import glob
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field

from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.services.recording.limits import Limits

WATCH_S = 1.0  # how often the trace's size on disk is measured


@dataclass(eq=False)
class TraceRun:
    context: BrowserContext
    scratch: str  # where Playwright's zip goes, in the private state folder
    name: str = field(default_factory=lambda: f"refbrowse-{secrets.token_hex(8)}")
    started: float = field(default_factory=time.time)
    limits: Limits = field(default_factory=Limits.from_env)
    cut: str = ""  # the limit that stopped it: "bytes" or "seconds"
    ending: asyncio.Future[None] | None = None  # the stop at a limit, writing `scratch`
    _watcher: asyncio.Task[None] | None = None
    _folder: str | None = None  # Playwright's traces folder, once found

    async def start(
        self, screenshots: bool, snapshots: bool, title: str, on_cut: Callable[[str], None]
    ) -> None:
        await self.context.tracing.start(
            name=self.name, screenshots=screenshots, snapshots=snapshots, title=title
        )
        self._watcher = asyncio.ensure_future(self._watch(on_cut))

    async def _watch(self, on_cut: Callable[[str], None]) -> None:
        while True:
            await asyncio.sleep(WATCH_S)
            why = "seconds" if time.time() - self.started >= self.limits.seconds else ""
            if not why and await asyncio.to_thread(self.size) >= self.limits.bytes:
                why = "bytes"
            if why:
                self.cut = why
                self.ending = asyncio.ensure_future(self._end())
                on_cut(why)
                return

    async def _end(self) -> None:
        with suppress(PlaywrightError):  # the context closed meanwhile: nothing is written
            await self.context.tracing.stop(path=self.scratch)

    async def stop(self) -> None:
        """The trace written to `scratch` (already, when a limit stopped it)."""
        if self._watcher is not None:
            self._watcher.cancel()
        await (self.ending or self.context.tracing.stop(path=self.scratch))

    def discard(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()

    def size(self) -> int:
        """The trace's bytes on disk so far: its own files and the resources written since it began."""
        folder = self._folder or self._find()
        if folder is None:
            return 0
        total = 0
        for own in (f"{self.name}.trace", f"{self.name}.network"):
            with suppress(OSError):
                total += os.stat(os.path.join(folder, own)).st_size
        for shared in ("resources", "screencast"):
            with suppress(OSError), os.scandir(os.path.join(folder, shared)) as found:
                for entry in found:
                    with suppress(OSError):
                        info = entry.stat()
                        total += info.st_size if info.st_mtime >= self.started - 1 else 0
        return total

    def _find(self) -> str | None:
        """Playwright's traces folder: a temporary folder of the driver's that holds NAME.trace."""
        pattern = os.path.join(glob.escape(tempfile.gettempdir()), "playwright-*", f"{self.name}.trace")
        found = glob.glob(pattern)
        self._folder = os.path.dirname(found[0]) if found else None
        return self._folder

    def left_out(self) -> str:
        if not self.cut:
            return ""
        limit = self.limits.said(self.cut)
        return f"the trace stopped at its limit of {limit}: what came after was not recorded"
