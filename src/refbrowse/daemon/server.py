"""The daemon's server: HTTP on its Unix socket (see `transport`), auth, dispatch,
idle timer, state file.

`refbrowse.daemon.bootstrap` starts the browser, then builds a `Daemon` from this module
(imported while the browser launches). The daemon exits when told to stop,
after `BROWSE_IDLE_TIMEOUT` ms without a command, or when Chromium or
Playwright's driver dies. Every command runs under one deadline (`bounds`), and
shutdown under another, past which a watchdog kills the browser (`reaper`).
"""

from __future__ import annotations

import asyncio
import contextvars
import errno
import hmac
import logging
import os
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from playwright.async_api import Error as PlaywrightError

from refbrowse import __version__, protocol
from refbrowse.daemon import httpserver, intake, lastexit, trace, transport
from refbrowse.daemon.bounds import Late, bounded
from refbrowse.daemon.handlers import Call, collect, data_of
from refbrowse.daemon.pwerrors import TAB_OR_BROWSER_CLOSED, translate
from refbrowse.daemon.reaper import Watchdog, kill_children
from refbrowse.daemon.services import assemble
from refbrowse.daemon.session import BrowserHost, Session
from refbrowse.daemon.snapshot import prepared
from refbrowse.daemon.tabguard import install as install_tab_guard
from refbrowse.errors import ActionTimeout, BrowseError, PageError, Unavailable, UsageError
from refbrowse.exitcodes import ExitCode
from refbrowse.parse import parse_values
from refbrowse.registry import COMMANDS, DEFAULTS
from refbrowse.specs import Result

log = logging.getLogger("refbrowse")

DEFAULT_IDLE_MS = DEFAULTS["idle_ms"]
DEFAULT_ACTION_MS = DEFAULTS["action_ms"]
DEFAULT_NAV_MS = DEFAULTS["nav_ms"]
SLACK_MS = 10_000  # beyond a command's own timeouts, before the daemon gives up on it
ANSWERS_S = 3.0  # at shutdown, for the commands in flight to answer before they are cancelled
SHUTDOWN_S = 15.0  # graceful shutdown: last state save, closing the browser
WATCHDOG_SLACK_S = 5.0  # past SHUTDOWN_S, the process is ended whatever the event loop does

Handler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]
# The nested command (`chain`) whose steps are being dispatched, "" for a client's own command.
_RUNNING_IN: contextvars.ContextVar[str] = contextvars.ContextVar("running_in", default="")


def _env_ms(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        log.warning("%s is not a number of milliseconds; using %d", name, default)
        return default


class Daemon:
    def __init__(self, state_dir: str, host: BrowserHost, browser_ready: asyncio.Task[None]) -> None:
        self.state_dir = state_dir
        self.log_path = protocol.state_path(state_dir, protocol.DAEMON_LOG)
        self.pid = os.getpid()
        self.port = 0
        self.listening = transport.Listening("", 0)
        # Taken now: while the driver starts, the environment lacks the secret settings.
        self.config = protocol.config_hash()
        self.started = time.time()
        self.token = secrets.token_urlsafe(32)
        self.host = host
        host.on_crash = self._browser_died
        self.after_command: list[Callable[[str, Session | None], None]] = []
        self.on_shutdown: list[Callable[[], Awaitable[None]]] = []
        self.status_lines: list[Callable[[], str]] = []
        self.notices: list[str] = [note] if (note := lastexit.recall(state_dir)) else []
        self.result_hooks: list[Callable[[str, str, Result], None]] = []
        self.record_hooks: list[Callable[[dict[str, Any], Result, float, str], Awaitable[None]]] = []
        self.tab_guard = install_tab_guard(host)
        self.services = assemble(self)
        self.handlers = collect()
        self.idle_ms = _env_ms("BROWSE_IDLE_TIMEOUT", DEFAULT_IDLE_MS)
        self.action_ms = _env_ms("BROWSE_TIMEOUT", DEFAULT_ACTION_MS)
        self.exit_code: int = ExitCode.OK
        self._stop = asyncio.Event()
        self._browser_ready = browser_ready
        self._last_active = time.monotonic()
        self._in_flight = 0
        self._first_command = True  # until it is answered: the end of the start, for `trace`
        self._watchdog = Watchdog(SHUTDOWN_S + WATCHDOG_SLACK_S)

    # lifecycle

    async def run(self) -> int:
        runner = httpserver.make_runner(self.serve, shutdown_timeout=ANSWERS_S)
        await runner.setup()
        self.listening = await transport.listen(runner, self.state_dir)
        self.port = self.listening.port
        self._write_state_file()
        self.host.switched.append(self._write_state_file)  # daemon.json names the browser's mode
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self._signalled)
        # A CLI that finds daemon.json corrupt while this daemon lives asks for it again.
        loop.add_signal_handler(signal.SIGUSR1, self._write_state_file)
        idle = asyncio.create_task(self._watch_idle())
        where = [self.listening.socket] if self.listening.socket else []
        where += [f"127.0.0.1:{self.port}"] if self.port else []
        log.info("daemon %d listening on %s", self.pid, " and ".join(where))
        await self._stop.wait()
        idle.cancel()
        self._remove_state_file()
        try:
            await asyncio.wait_for(self._shut_down(runner), SHUTDOWN_S)
        except TimeoutError:
            log.error("shutdown took longer than %.0f s: killing the browser", SHUTDOWN_S)
        kill_children((self.host.driver_pid,) if self.host.driver_pid else ())
        log.info("daemon %d exits (%d)", self.pid, self.exit_code)
        return self.exit_code

    async def _shut_down(self, runner: web.BaseRunner) -> None:
        await runner.cleanup()
        for hook in self.on_shutdown:
            try:
                await hook()
            except Exception:
                log.exception("shutdown hook failed")
        await self.host.close()

    def _signalled(self) -> None:
        """The first SIGTERM stops gracefully (within the watchdog's bound); a second one at once."""
        if self._stop.is_set():
            self._watchdog.fire()
        self.request_stop()

    def request_stop(self) -> None:
        # The watchdog ends the process if the graceful path hangs on a wedged browser.
        self._watchdog.arm()
        self._stop.set()

    def idle_seconds_left(self) -> float:
        return self.idle_ms / 1000 - (time.monotonic() - self._last_active)

    def _browser_died(self) -> None:
        self.exit_code = ExitCode.PAGE_ERROR
        lastexit.record(self.state_dir, self.host.gone or "the browser went away")
        self.request_stop()

    def _write_state_file(self) -> None:
        info = protocol.daemon_info(
            self.pid, self.port, self.token, self.started, self.host.mode, self.listening.socket, self.config
        )
        try:
            protocol.write_daemon_file(self.state_dir, info)
        except OSError as exc:  # asked again by the next CLI: one line each time, never a traceback
            log.warning("could not write daemon.json: %s", exc)

    def _remove_state_file(self) -> None:
        protocol.remove_daemon_file(self.state_dir, self.pid)
        transport.remove_socket(self.listening)

    async def _watch_idle(self) -> None:
        while True:
            left = self.idle_seconds_left()
            if left <= 0 and self._in_flight == 0:
                log.info("idle for %d ms: stopping", self.idle_ms)
                self.request_stop()
                return
            await asyncio.sleep(max(left, 0.05))

    # HTTP

    async def serve(self, request: web.BaseRequest) -> web.StreamResponse:
        """Only this user's CLI (the transport's checks, see `transport`, then the token); then the route."""
        refused = transport.refusal(request, self.port)
        if refused:
            return httpserver.refused(403, f"forbidden: {refused}")
        if request.path != protocol.HEALTH_PATH:
            given = request.headers.get("Authorization", "")
            if not hmac.compare_digest(
                given.encode("utf-8", "surrogateescape"), f"Bearer {self.token}".encode()
            ):
                return httpserver.refused(401, "unauthorized")
        routes: dict[str, tuple[str, Handler]] = {
            protocol.HEALTH_PATH: ("GET", self._health),
            protocol.COMMAND_PATH: ("POST", self._command),
        }
        if request.path not in routes:
            return httpserver.refused(404, f"no such path: {request.path[:100]}")
        method, route = routes[request.path]
        if request.method != method:
            return httpserver.refused(405, f"{request.path} takes {method}, not {request.method[:20]}")
        return await route(request)

    async def _health(self, request: web.BaseRequest) -> web.Response:
        if self._stop.is_set():
            return web.json_response({"ok": False, "stopping": True}, status=protocol.STOPPING_STATUS)
        return web.json_response({"ok": True, "version": __version__})

    async def _command(self, request: web.BaseRequest) -> web.Response:
        if self._stop.is_set():
            # The CLI waits for this daemon to exit and sends the command to a fresh one.
            return web.json_response({"ok": False, "error": "stopping"}, status=protocol.STOPPING_STATUS)
        try:
            body = await intake.read_command(request)
        except intake.BadRequest as exc:
            return exc.response()
        self._in_flight += 1
        try:
            result = await self.dispatch(body)
            if result["exit_code"] == ExitCode.UNAVAILABLE and await self.host.lost():
                # Chromium died under this command: the CLI sends it again to a fresh daemon.
                self.request_stop()
                return web.json_response(
                    {"ok": False, "error": "the browser died"}, status=protocol.STOPPING_STATUS
                )
            tab_closed = str(result["error"]).startswith(TAB_OR_BROWSER_CLOSED)
            if result["exit_code"] == ExitCode.UNAVAILABLE and tab_closed:
                # Only the tab went (the page closed it, or a storm guard did): a failure on the page.
                result["exit_code"] = ExitCode.PAGE_ERROR
                result["error"] = "the tab was closed while the command ran (the browser is still running)"
        finally:
            self._in_flight -= 1
            self._last_active = time.monotonic()
        if self._first_command:
            self._first_command = False
            trace.start_step("first command answered")
        return _render(result, as_json=bool(body.get("json")))

    # dispatch

    async def dispatch(self, body: dict[str, Any]) -> Result:
        """Run one command; the result is the JSON the CLI receives."""
        started = time.time()
        name = str(body.get("command"))
        if name not in self.handlers:
            return _failure(UsageError(f"unknown command: {name}", "run `browse help`"))
        parent = _RUNNING_IN.get()
        token = _RUNNING_IN.set(name) if COMMANDS[name].get("nested") else None
        try:
            result = await self._run(name, body)
        finally:
            if token is not None:
                _RUNNING_IN.reset(token)
        notes = self.tab_guard.take_notes(str(body.get("session") or "default"))
        notes, self.notices[:] = [*self.notices, *notes], []
        if notes:
            result["notes"] = notes
        for hook in self.result_hooks:
            hook(name, str(body.get("session") or "default"), result)
        for record in self.record_hooks:
            await record(body, result, started, parent)
        return result

    async def _run(self, name: str, body: dict[str, Any]) -> Result:
        timeout_ms = body.get("timeout") if isinstance(body.get("timeout"), int) else None
        limit = (timeout_ms or max(self.action_ms, DEFAULT_NAV_MS)) + SLACK_MS
        nested = bool(COMMANDS[name].get("nested"))  # its steps are dispatched, each with its own limit
        refused = self.services.handoffs.refusal(name)
        if refused is not None:
            return _failure(refused)
        try:
            output = await self._execute(name, body, timeout_ms, None if nested else limit / 1000)
        except BrowseError as exc:
            return _failure(exc)
        except PlaywrightError as exc:
            return _failure(translate(exc, f"running {name}"))
        except (Late, TimeoutError):
            return _failure(
                ActionTimeout(f"{name} did not finish in {limit} ms", "retry with a larger --timeout")
            )
        except OSError as exc:  # a path the system refused: say which and why, never "internal error"
            return _failure(_file_error(name, exc))
        except Exception as exc:
            log.exception("internal error in %s", name)
            return _failure(BrowseError(f"internal error in {name}: {exc}", f"see {self.log_path}"))
        return protocol.success(output, data_of(output))

    async def _execute(
        self, name: str, body: dict[str, Any], timeout_ms: int | None, limit_s: float | None
    ) -> str:
        """Every step, waiting for the tab included, is bounded by one deadline.

        The tab's lock is taken and released here, outside the bounded tasks, so a
        handler left behind by `bounded` never keeps the tab from the next command.
        """
        loop = asyncio.get_running_loop()
        deadline = None if limit_s is None else loop.time() + limit_s

        def left() -> float | None:
            return None if deadline is None else max(0.0, deadline - loop.time())

        call = await bounded(self._call(name, body, timeout_ms), left(), name)
        tab = call.current_tab
        # A nested command dispatches other commands, which take the tab's lock themselves.
        locked = tab is not None and COMMANDS[name]["cat"] != "meta" and not COMMANDS[name].get("nested")
        try:
            if not locked or tab is None:
                return await bounded(self.handlers[name](call), left(), name)
            # wait_for, not bounded: a lock won just as time runs out must not be lost.
            await asyncio.wait_for(tab.lock.acquire(), left())
            try:
                return await bounded(self._on_tab(call), left(), name)
            finally:
                tab.lock.release()
        finally:
            for hook in self.after_command:
                hook(name, call.current_session)

    async def _call(self, name: str, body: dict[str, Any], timeout_ms: int | None) -> Call:
        args, flags = parse_values(
            name, [str(arg) for arg in body.get("args") or []], dict(body.get("flags") or {})
        )
        session_name = str(body.get("session") or "default")
        if COMMANDS[name]["cat"] == "meta":
            session = self.host.sessions.get(session_name)
            tab = session.current if session else None
        else:
            await self.wait_for_browser()
            session = await self.host.session(session_name)
            tab = await session.current_tab()
            if self._first_command:
                trace.start_step("first tab ready")
        return Call(
            name=name,
            args=args,
            flags=flags,
            raw=bool(body.get("raw")),
            json=bool(body.get("json")),
            stdin=body["stdin"] if isinstance(body.get("stdin"), str) else None,
            action_timeout_ms=timeout_ms or self.action_ms,
            nav_timeout_ms=timeout_ms or DEFAULT_NAV_MS,
            daemon=self,
            services=self.services,
            current_session=session,
            current_tab=tab,
        )

    async def _on_tab(self, call: Call) -> str:
        prepared.command_started(call.tab, call.name)
        page = call.tab.page
        page.set_default_timeout(call.action_timeout_ms)
        page.set_default_navigation_timeout(call.nav_timeout_ms)
        return await self.tab_guard.guard(call.session, call.tab, self.handlers[call.name](call), call.name)

    async def wait_for_browser(self) -> None:
        try:
            await asyncio.shield(self._browser_ready)
        except BrowseError:
            self.request_stop()  # the next command starts afresh, after the user fixes the cause
            raise
        except PlaywrightError as exc:
            self.request_stop()
            raise Unavailable(f"the browser did not start: {exc.message}", f"see {self.log_path}") from exc


def _render(result: Result, as_json: bool) -> web.Response:
    """The response in the form the CLI prints (see `refbrowse.protocol`)."""
    headers = {protocol.HEADER_EXIT: str(result["exit_code"])}
    if as_json:
        return web.Response(body=protocol.render_json(result), headers=headers)
    stdout, stderr = protocol.render_text(result)
    headers[protocol.HEADER_STDOUT] = str(len(stdout))
    return web.Response(body=stdout + stderr, headers=headers)


def _file_error(name: str, exc: OSError) -> BrowseError:
    where = f" {exc.filename}" if exc.filename else ""
    message = f"{name} could not use{where}: {exc.strerror or exc}"
    if exc.errno == errno.ENAMETOOLONG:
        return UsageError(message, "use a shorter file name (at most 255 bytes a name)")
    return PageError(message, "check the path and its folder")


def _failure(exc: BrowseError) -> Result:
    return protocol.failure(exc.message, exc.hint, exc.exit_code, exc.output)
