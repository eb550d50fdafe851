"""Console, network and dialog capture from every tab, from the tab's first moment.

Entries go into the ring buffers of `logbuffer`, flushed in the background to
`.refbrowse/console.log`, `network.log` and `dialog.log`. Dialogs are answered
at once by the session's policy (accept by default) so they never hang a tab.
The `console`, `network` and `dialog` commands read what is kept here.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from playwright.async_api import ConsoleMessage, Dialog, Page, Request
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.runtime.logbuffer import (
    NOT_MODIFIED,
    ConsoleEntry,
    DialogEntry,
    LogFlusher,
    NetworkEntry,
    RateBreaker,
    RingBuffer,
)
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pagereads import CONSOLE_TEXT_CHARS, URL_CHARS, cut_text
from refbrowse.daemon.services.requestbook import RequestBook

log = logging.getLogger("refbrowse")


@dataclass(frozen=True, slots=True)
class DialogPolicy:
    accept: bool = True
    text: str | None = None  # what to type into a prompt; None keeps its default

    def describe(self) -> str:
        if not self.accept:
            return "dismissed"
        return "accepted" if self.text is None else f"accepted with {self.text!r}"


class PageLogs:
    """The daemon's three logs, their flusher, and each session's dialog policy."""

    def __init__(self, state_dir: str) -> None:
        self.console: RingBuffer[ConsoleEntry] = RingBuffer()
        self.network: RingBuffer[NetworkEntry] = RingBuffer()
        self.dialogs: RingBuffer[DialogEntry] = RingBuffer()
        self.policies: dict[str, DialogPolicy] = {}
        self.requests = RequestBook()  # what `request N` shows
        self.breakers: list[RateBreaker] = []
        self.flusher = LogFlusher(
            {
                os.path.join(state_dir, "console.log"): self.console,
                os.path.join(state_dir, "network.log"): self.network,
                os.path.join(state_dir, "dialog.log"): self.dialogs,
            }
        )
        self._tasks: set[asyncio.Task[None]] = set()

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        self.flusher.start()
        page = tab.page
        self._watch_console(session.name, page)
        page.on("pageerror", lambda exc: self._note(session.name, page, "pageerror", str(exc)))
        page.on("requestfinished", lambda req: self._on_request(session.name, req, None))
        page.on("requestfailed", lambda req: self._on_request(session.name, req, "failed"))
        page.on("dialog", lambda dialog: self._spawn(self._answer(session.name, page, dialog)))

    async def on_shutdown(self) -> None:
        await self.flusher.stop()

    def status_line(self) -> str:
        trips = sum(b.trips for b in self.breakers)
        dropped = sum(b.dropped for b in self.breakers)
        return (
            f"logs: {self.console.total} console, {self.network.total} network, {self.dialogs.total} dialog"
            f" entries captured; console breaker: {trips} trips, {dropped} messages dropped"
        )

    def _watch_console(self, session: str, page: Page) -> None:
        def on_console(message: ConsoleMessage) -> None:
            if breaker.allow():
                self._note(session, page, message.type, message.text)

        def pause() -> None:
            page.remove_listener("console", on_console)
            self._note(
                session,
                page,
                "warning",
                f"console capture paused: more than {breaker.limit} messages in {breaker.window_s:g} s"
                f" from {page.url}; resumes in {breaker.cooldown_s:g} s",
            )

        def resume() -> None:
            if not page.is_closed():
                page.on("console", on_console)
                self._note(session, page, "warning", f"console capture resumed for {page.url}")

        breaker = RateBreaker(pause, resume)
        self.breakers.append(breaker)
        page.on("close", lambda _: self.breakers.remove(breaker))
        page.on("console", on_console)

    def _note(self, session: str, page: Page, level: str, text: str) -> None:
        kept = cut_text(text, CONSOLE_TEXT_CHARS)
        self.console.append(ConsoleEntry(time.time(), session, level, kept, page.url))

    def _spawn(self, step: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(step)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_request(self, session: str, request: Request, failed: str | None) -> None:
        # Numbered as Chromium reports them, before any await can reorder them.
        n = self.requests.number(session, request)
        self._spawn(self._record_request(session, request, failed, n))

    async def _record_request(self, session: str, request: Request, failed: str | None, n: int) -> None:
        timing = request.timing
        ms = round(timing["responseEnd"]) if timing.get("responseEnd", -1) >= 0 else -1
        status, size = "failed", None
        try:
            if failed:
                status = f"failed ({request.failure or 'unknown reason'})"
            else:
                response = await request.response()
                status = str(response.status) if response else "no response"
                size = (await request.sizes())["responseBodySize"]
                if size <= 0 and await _conditional(request):
                    status, size = NOT_MODIFIED, None
        except PlaywrightError:
            pass  # the page closed before Playwright could answer: log what is known
        url = cut_text(request.url, URL_CHARS)
        self.network.append(NetworkEntry(time.time(), session, request.method, url, status, ms, size, n))

    async def _answer(self, session: str, page: Page, dialog: Dialog) -> None:
        policy = self.policies.get(session, DialogPolicy())
        try:
            if policy.accept or dialog.type == "beforeunload":
                text = policy.text if policy.text is not None else dialog.default_value
                await dialog.accept(text if dialog.type == "prompt" else None)
            else:
                await dialog.dismiss()
            action = policy.describe() if dialog.type == "prompt" or not policy.accept else "accepted"
        except PlaywrightError as exc:
            action = f"not answered: {exc.message}"
        self.dialogs.append(DialogEntry(time.time(), session, dialog.type, dialog.message, action, page.url))


async def _conditional(request: Request) -> bool:
    """The browser asked whether its cached copy is current (If-None-Match, If-Modified-Since).

    Chromium hands Playwright the cached response of a 304, so its status reads
    200 and its body size 0 or less: a conditional request with no body is the
    304 that came over the wire.
    """
    sent = await request.all_headers()
    return "if-none-match" in sent or "if-modified-since" in sent
