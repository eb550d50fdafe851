"""Dispatch: one request → its handler, run on its tab under one deadline → the result.

The server hands each checked request here; so do `chain` (one request a
step) and the activity page. A command's handler gets a `Call`; the tab's lock
keeps commands on one tab in order; every watcher `assemble` named hears the
result.
"""

from __future__ import annotations

import asyncio
import contextvars
import errno
import logging
import os
import time
from collections.abc import Callable

from playwright.async_api import Error as PlaywrightError

from refbrowse import protocol
from refbrowse.daemon.assemble import Wiring
from refbrowse.daemon.command import Call, DaemonView, collect, data_of
from refbrowse.daemon.core.browser.driverstate import stopped, stopped_error
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.runtime.bounds import Late, bounded
from refbrowse.daemon.core.runtime.timeouts import Timeouts
from refbrowse.daemon.core.sessions.tab import Holder, Tab
from refbrowse.daemon.readiness import BrowserReadiness
from refbrowse.daemon.services.bag import Services
from refbrowse.errors import ActionTimeout, BrowseError, PageError, UsageError
from refbrowse.parse import parse_values
from refbrowse.registry import COMMANDS, DEFAULTS
from refbrowse.specs import Result

log = logging.getLogger("refbrowse")

SLACK_MS = 10_000  # beyond a command's own timeouts, before the daemon gives up on it
# The nested command (`chain`) whose steps are being dispatched, "" for a client's own command.
_RUNNING_IN: contextvars.ContextVar[str] = contextvars.ContextVar("running_in", default="")
# What the running command waited for before it could start (another command on its tab), for its reply.
_WAITED: contextvars.ContextVar[list[str]] = contextvars.ContextVar("waited")
# Where a line for the client goes before the command's answer (the server's interim reply), if it asked.
EARLY: contextvars.ContextVar[Callable[[str], None] | None] = contextvars.ContextVar("early", default=None)
EARLY_S = 0.5  # a command waiting this long for its tab says what it waits for, before its answer


def env_ms(name: str, default: int) -> int:
    """A duration in milliseconds from the environment, else `default` (said in the log when unreadable)."""
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        log.warning("%s is not a number of milliseconds; using %d", name, default)
        return default


class Dispatcher:
    def __init__(
        self,
        daemon: DaemonView,
        services: Services,
        wiring: Wiring,
        notices: Notices,
        readiness: BrowserReadiness,
    ) -> None:
        self.daemon = daemon
        self.readiness = readiness  # handed down: dispatch never asks the server whether the browser is up
        self.services = services
        self.wiring = wiring
        self.notices = notices
        self.handlers = collect()
        action_ms = env_ms("BROWSE_TIMEOUT", DEFAULTS["action_ms"])
        self.timeouts = Timeouts(default_ms=action_ms, navigation_ms=DEFAULTS["nav_ms"])
        self.first_tab_seen = False  # the end of the start, for `trace`

    async def dispatch(self, request: CheckedRequest) -> Result:
        """Run one command; the result is the JSON the CLI receives."""
        started = time.time()
        name = request.command
        if name not in self.handlers:
            return _failure(UsageError(f"unknown command: {name}", "run `browse help`"))
        parent = _RUNNING_IN.get()
        token = _RUNNING_IN.set(name) if COMMANDS[name].get("nested") else None
        waited = _WAITED.set([])
        try:
            result = await self._run(name, request)
        finally:
            if token is not None:
                _RUNNING_IN.reset(token)
            notes = _WAITED.get()
            _WAITED.reset(waited)
        session = request.session
        notes += [*self.notices.take(), *self.services.tab_guard.take_notes(session)]
        if notes:
            result["notes"] = notes
        for watcher in self.wiring.results:
            watcher.on_result(name, session, result)
        for recorder in self.wiring.recorders:
            await recorder.record(request, result, started, parent)
        return result

    async def _run(self, name: str, request: CheckedRequest) -> Result:
        limit = self.timeouts.child(request.timeout_ms).longest() + SLACK_MS
        nested = bool(COMMANDS[name].get("nested"))  # its steps are dispatched, each with its own limit
        refused = self.services.handoffs.refusal(name) or self.services.remote_hops.refusal(name)
        if refused is not None:
            return _failure(refused)
        try:
            output = await self._execute(request, None if nested else limit / 1000)
        except BrowseError as exc:
            return _failure(exc)
        except PlaywrightError as exc:
            return _failure(translate(exc, f"running {name}"))
        except (Late, TimeoutError):
            if stopped(self.daemon.host.driver_pid):  # what it waited on all that time
                return _failure(stopped_error(self.daemon.host.driver_pid))
            return _failure(
                ActionTimeout(f"{name} did not finish in {limit} ms", "retry with a larger --timeout")
            )
        except OSError as exc:  # a path the system refused: say which and why, never "internal error"
            return _failure(_file_error(name, exc))
        except Exception as exc:  # a bug in one command is its error, never the daemon's end
            log.exception("internal error in %s", name)
            return _failure(BrowseError(f"internal error in {name}: {exc}", f"see {self.daemon.log_path}"))
        return protocol.success(output, data_of(output))

    async def _execute(self, request: CheckedRequest, limit_s: float | None) -> str:
        """Every step is bounded by one deadline; the wait for the tab, by the command's own timeout.

        The tab's lock is taken and released here, outside the bounded tasks, so a
        handler left behind by `bounded` never keeps the tab from the next command.
        A command that waited for the tab then has its whole time to run.
        """
        loop = asyncio.get_running_loop()
        deadline = None if limit_s is None else loop.time() + limit_s

        def left() -> float | None:
            return None if deadline is None else max(0.0, deadline - loop.time())

        name = request.command
        call = await bounded(self._call(request), left(), name)
        tab = call.current_tab
        # The one gate every command passes: a consequential action is held for a person's answer.
        # Not in a task of its own: the command it checked is what the handler's own `require` holds.
        await self.services.consent.check(request, tab)
        # A nested command dispatches other commands, which take the tab's lock themselves.
        spec = COMMANDS[name]
        locked = (
            tab is not None and spec["cat"] != "meta" and not spec.get("nested") and not spec.get("lockless")
        )
        try:
            if not locked or tab is None:
                return await bounded(self.handlers[name](call), left(), name)
            await self._take_tab(tab, request, call.timeouts.longest(), left())
            if limit_s is not None:
                deadline = loop.time() + limit_s
            tab.busy = Holder(" ".join([name, *request.args[:1]]), loop.time(), deadline)
            try:
                return await bounded(self._on_tab(call), left(), name)
            finally:
                trace.mark("handled")
                tab.busy = None
                tab.lock.release()
        finally:
            for watcher in self.wiring.after_command:
                watcher.after_command(name, call.current_session)

    async def _take_tab(self, tab: Tab, request: CheckedRequest, own_ms: int, whole_s: float | None) -> None:
        """The tab's lock, waited for no longer than the command's own timeout when another command
        holds it (the daemon's own bounded read of the page, within the command's whole bound). The
        waiting one says so: early (to a client that asked, see `EARLY`), when it ran at last, or in
        its error when its time ran out."""
        holder = tab.busy if tab.lock.locked() else None
        if tab.lock.locked() and holder is None:  # a background read: its time is not the command's
            own_ms = round(whole_s * 1000) if whole_s is not None else own_ms
        loop = asyncio.get_running_loop()
        started = loop.time()
        early = EARLY.get()
        timer = None
        if holder is not None and early is not None:
            timer = loop.call_later(EARLY_S, lambda: early(waiting_line(request.command, holder, own_ms)))
        try:
            # wait_for, not bounded: a lock won just as time runs out must not be lost.
            await asyncio.wait_for(tab.lock.acquire(), own_ms / 1000)
        except TimeoutError:
            raise _waited_out(request, tab.busy or holder, own_ms) from None
        finally:
            if timer is not None:
                timer.cancel()
        if holder is not None:
            waited = loop.time() - started
            _WAITED.get().append(
                f"waited {waited:.1f} s for `{holder.command}` to finish on this tab before running"
                f" {request.command}"
            )

    async def _call(self, request: CheckedRequest) -> Call:
        name, session_name = request.command, request.session
        args, flags = parse_values(name, list(request.args), dict(request.flags))
        if COMMANDS[name]["cat"] == "meta":
            session = self.daemon.host.sessions.get(session_name)
            tab = session.current if session else None
        else:
            await self.readiness.wait()
            session = await self.daemon.host.session(session_name)
            owed = session.take_revived()  # the browser was restarted since its last command
            if owed is not None:
                raise owed
            tab = await session.current_tab()
            if not self.first_tab_seen:
                self.first_tab_seen = True
                trace.start_step("first tab ready")
        return Call(
            name=name,
            args=args,
            flags=flags,
            raw=request.raw,
            json=request.json,
            stdin=request.stdin,
            argv_text=request.argv_text,
            stdin_texts=request.stdin_texts,
            session_name=session_name,
            timeouts=self.timeouts.child(request.timeout_ms),
            daemon=self.daemon,
            services=self.services,
            current_session=session,
            current_tab=tab,
        )

    async def _on_tab(self, call: Call) -> str:
        for started in self.wiring.before_command:
            started(call.tab, call.name)
        page = call.tab.page
        # A new tab (one a restart brought back too) has the session's settings before any
        # command reads it: `js` on it must see the emulation `status` lists.
        await self.services.settings.ready(page, call.action_timeout_ms / 1000)
        page.set_default_timeout(call.action_timeout_ms)
        page.set_default_navigation_timeout(call.nav_timeout_ms)
        guard = self.services.tab_guard
        return await guard.guard(call.session, call.tab, lambda: self.handlers[call.name](call), call.name)


def waiting_line(command: str, holder: Holder, own_ms: int) -> str:
    """The early word of a command waiting behind another on its tab."""
    return (
        f"{command} waits for `{holder.command}`, which holds this tab ({_running(holder)});"
        f" it runs once that ends, or gives up after {own_ms / 1000:g} s"
    )


def _waited_out(request: CheckedRequest, holder: Holder | None, own_ms: int) -> ActionTimeout:
    """A command that never got its tab: which command holds it, and what to do about it."""
    command, waited = request.command, f"{own_ms / 1000:g} s"
    if holder is None:  # the daemon's own work on the tab (a background read) is bounded
        return ActionTimeout(
            f"{command} waited {waited} for its tab, which the daemon was still reading",
            "retry, or give the command a larger --timeout",
        )
    return ActionTimeout(
        f"{command} did not run: `{holder.command}` still holds this tab ({_running(holder)});"
        f" {command} waited {waited}, its --timeout",
        f"wait for that command's answer, or stop it (Ctrl-C on the `browse` that runs it cancels it);"
        f" then retry {command}, or give it a larger --timeout",
    )


def _running(holder: Holder) -> str:
    now = asyncio.get_running_loop().time()
    ran = f"running for {now - holder.since:.0f} s"
    if holder.until is None:
        return ran
    return f"{ran}, given up by the daemon within {max(0.0, holder.until - now):.0f} s"


def _file_error(name: str, exc: OSError) -> BrowseError:
    where = f" {exc.filename}" if exc.filename else ""
    message = f"{name} could not use{where}: {exc.strerror or exc}"
    if exc.errno == errno.ENAMETOOLONG:
        return UsageError(message, "use a shorter file name (at most 255 bytes a name)")
    return PageError(message, "check the path and its folder")


def _failure(exc: BrowseError) -> Result:
    return protocol.failure(exc.message, exc.hint, exc.exit_code, exc.output)
