"""Logs and dialogs: capture from every tab, and `console`, `network`, `dialog`, `dialog-accept|dismiss`.

`install(daemon, capture)`, called where the daemon is assembled, adds a tab hook that
attaches the listeners to each new tab.
Entries go into the ring buffers of `logbuffer`, flushed in the background to
`.refbrowse/console.log`, `network.log` and `dialog.log`. Dialogs are answered
at once by the session's policy (accept by default) so they never hang a tab.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from playwright.async_api import ConsoleMessage, Dialog, Page, Request
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.effects import perform
from refbrowse.daemon.envelope import fence
from refbrowse.daemon.handlers import Call, DaemonView, handler
from refbrowse.daemon.logbuffer import (
    ConsoleEntry,
    DialogEntry,
    LogFlusher,
    NetworkEntry,
    RateBreaker,
    RingBuffer,
)
from refbrowse.daemon.pagereads import CONSOLE_TEXT_CHARS, URL_CHARS, cut_text
from refbrowse.daemon.session import Session, Tab

log = logging.getLogger("refbrowse")

SHOW_AT_MOST = 1_000  # lines a listing prints; the full log is on disk
ERROR_LEVELS = ("error", "pageerror")


@dataclass(frozen=True, slots=True)
class DialogPolicy:
    accept: bool = True
    text: str | None = None  # what to type into a prompt; None keeps its default

    def describe(self) -> str:
        if not self.accept:
            return "dismissed"
        return "accepted" if self.text is None else f"accepted with {self.text!r}"


class Capture:
    """The daemon's three logs, their flusher, and each session's dialog policy."""

    def __init__(self, state_dir: str) -> None:
        self.console: RingBuffer[ConsoleEntry] = RingBuffer()
        self.network: RingBuffer[NetworkEntry] = RingBuffer()
        self.dialogs: RingBuffer[DialogEntry] = RingBuffer()
        self.policies: dict[str, DialogPolicy] = {}
        self.breakers: list[RateBreaker] = []
        self.flusher = LogFlusher(
            {
                os.path.join(state_dir, "console.log"): self.console,
                os.path.join(state_dir, "network.log"): self.network,
                os.path.join(state_dir, "dialog.log"): self.dialogs,
            }
        )
        self._tasks: set[asyncio.Task[None]] = set()

    def attach(self, session: Session, tab: Tab) -> None:
        self.flusher.start()
        page = tab.page
        self._watch_console(session.name, page)
        page.on("pageerror", lambda exc: self._note(session.name, page, "pageerror", str(exc)))
        page.on("requestfinished", lambda req: self._spawn(self._record_request(session.name, req, None)))
        page.on("requestfailed", lambda req: self._spawn(self._record_request(session.name, req, "failed")))
        page.on("dialog", lambda dialog: self._spawn(self._answer(session.name, page, dialog)))

    def status(self) -> str:
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

    async def _record_request(self, session: str, request: Request, failed: str | None) -> None:
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
        except PlaywrightError:
            pass  # the page closed before Playwright could answer: log what is known
        url = cut_text(request.url, URL_CHARS)
        self.network.append(NetworkEntry(time.time(), session, request.method, url, status, ms, size))

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


def install(daemon: DaemonView, capture: Capture) -> None:
    """Capture every tab's console, requests and dialogs from the start; flush at shutdown."""
    daemon.host.tab_hooks.append(capture.attach)
    daemon.on_shutdown.append(capture.flusher.stop)
    daemon.status_lines.append(capture.status)


def listing(lines: list[str], log_name: str, empty: str) -> str:
    """The newest `SHOW_AT_MOST` lines, saying where the rest is."""
    if not lines:
        return empty
    if len(lines) <= SHOW_AT_MOST:
        return "\n".join(lines)
    left_out = len(lines) - SHOW_AT_MOST
    return "\n".join([f"({left_out} earlier entries: see .refbrowse/{log_name})", *lines[-SHOW_AT_MOST:]])


def _show_log(
    call: Call,
    buffer: RingBuffer[Any],
    log_name: str,
    what: str,
    empty: str,
    keep: Callable[[Any], bool] | None = None,
) -> str:
    """A log command: this session's `what` (those `keep` accepts), or `--clear` them."""
    session = call.session.name
    if call.flags.get("--clear"):
        return f"Cleared {buffer.clear(session)} {what}."
    lines = [e.line() for e in buffer.entries(session) if keep is None or keep(e)]
    text = listing(lines, log_name, empty)
    return fence(text, f"the {what} of session {session}", call.raw)


@handler("console")
async def console(call: Call) -> str:
    errors_only = bool(call.flags.get("--errors"))
    keep = (lambda e: e.level in ERROR_LEVELS) if errors_only else None
    return _show_log(
        call, call.services.capture.console, "console.log", "console messages", "(no console messages)", keep
    )


@handler("network")
async def network(call: Call) -> str:
    return _show_log(call, call.services.capture.network, "network.log", "network entries", "(no requests)")


@handler("dialog")
async def dialog(call: Call) -> str:
    return _show_log(call, call.services.capture.dialogs, "dialog.log", "dialog entries", "(no dialogs)")


@handler("dialog-accept")
async def dialog_accept(call: Call) -> str:
    policy = DialogPolicy(accept=True, text=call.arg(0))
    outcome = await perform(call, "setting the dialog policy", lambda: _set_policy(call, policy))
    return outcome.report(f"Dialogs will be {policy.describe()} from now on.")


@handler("dialog-dismiss")
async def dialog_dismiss(call: Call) -> str:
    policy = DialogPolicy(accept=False)
    outcome = await perform(call, "setting the dialog policy", lambda: _set_policy(call, policy))
    return outcome.report(
        "Dialogs will be dismissed from now on (`browse dialog-accept` to accept them again)."
    )


async def _set_policy(call: Call, policy: DialogPolicy) -> None:
    call.services.capture.policies[call.session.name] = policy
