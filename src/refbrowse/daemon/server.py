"""The daemon's server: HTTP on its Unix socket (see `transport`), auth, dispatch,
idle timer, state file.

`refbrowse.daemon.bootstrap` starts the browser, then builds a `Daemon` from this module
(imported while the browser launches). The daemon exits when told to stop,
after `BROWSE_IDLE_TIMEOUT` ms without a command, or when Chromium or
Playwright's driver is lost more often than `revive` restarts them. Every
command runs under one deadline (`bounds`), and shutdown under another, past
which a watchdog kills the browser (`reaper`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import secrets
import signal
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from refbrowse import __version__, protocol
from refbrowse.daemon import httpserver, intake, transport
from refbrowse.daemon.assemble import assemble
from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.browser.pwerrors import TAB_OR_BROWSER_CLOSED
from refbrowse.daemon.core.browser.revive import Reviver
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.runtime import heap, lastexit, memwatch, trace
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.dispatch import EARLY, Dispatcher, env_ms
from refbrowse.daemon.readiness import BrowserReadiness
from refbrowse.daemon.reaper import Watchdog, kill_children
from refbrowse.exitcodes import ExitCode
from refbrowse.registry import COMMANDS, DEFAULTS
from refbrowse.specs import Result

log = logging.getLogger("refbrowse")

DEFAULT_IDLE_MS = DEFAULTS["idle_ms"]
ANSWERS_S = 3.0  # at shutdown, for the commands in flight to answer before they are cancelled
SHUTDOWN_S = 15.0  # graceful shutdown: last state save, closing the browser
STATE_DIR_CHECK_S = 10.0  # how often the daemon checks that its state directory is still there
WATCHDOG_SLACK_S = 5.0  # past SHUTDOWN_S, the process is ended whatever the event loop does

Handler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]


class Daemon:
    def __init__(
        self,
        state_dir: str,
        host: BrowserHost,
        browser_ready: asyncio.Task[None],
    ) -> None:
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
        self.reviver = Reviver(host, give_up=self._browser_died)
        host.on_crash = self.reviver.on_loss
        assembly = assemble(self, host)
        self.services, self.wiring, self.notices = assembly.services, assembly.wiring, assembly.notices
        note = lastexit.recall(state_dir)  # why the previous daemon ended, when it did not choose to
        if note:
            self.notices.add(note)
        self.idle_ms = env_ms("BROWSE_IDLE_TIMEOUT", DEFAULT_IDLE_MS)
        self.exit_code: int = ExitCode.OK
        self._stop = asyncio.Event()
        self._browser_ready = browser_ready
        self.readiness = BrowserReadiness(host, self.reviver, browser_ready, self.request_stop, self.log_path)
        self.dispatcher = Dispatcher(self, self.services, self.wiring, self.notices, self.readiness)
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
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self._signalled)
        # A CLI that finds daemon.json corrupt while this daemon lives asks for it again.
        loop.add_signal_handler(signal.SIGUSR1, self._write_state_file)
        heap.freeze()  # the imports and the start: alive as long as the daemon
        idle = asyncio.create_task(self._watch_idle())
        workspace = asyncio.create_task(self._watch_state_dir())
        census = asyncio.create_task(memwatch.watch())
        tidying = asyncio.create_task(
            heap.watch(lambda: self._last_active, lambda: self._in_flight > 0, told=memwatch.COUNTING)
        )
        spawn(self._prepare_browser())
        where = [self.listening.socket] if self.listening.socket else []
        where += [f"127.0.0.1:{self.port}"] if self.port else []
        log.info("daemon %d listening on %s", self.pid, " and ".join(where))
        await self._stop.wait()
        idle.cancel()
        workspace.cancel()
        census.cancel()
        tidying.cancel()
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
        for step in self.wiring.shutdown:
            try:
                await step.on_shutdown()
            except Exception:  # one step's failure must not skip the rest, nor closing the browser
                log.exception("shutdown step failed")
        await self.host.close()

    def _signalled(self) -> None:
        """The first SIGTERM stops gracefully (within the watchdog's bound); a second one at once."""
        if self._stop.is_set():
            self._watchdog.fire()
        self.request_stop()

    def request_stop(self) -> None:
        self.reviver.stopped = True
        # The watchdog ends the process if the graceful path hangs on a wedged browser.
        self._watchdog.arm()
        self._stop.set()

    def idle_seconds_left(self) -> float:
        return self.idle_ms / 1000 - (time.monotonic() - self._last_active)

    async def _prepare_browser(self) -> None:
        """Once the browser is up, what the first action needs of it (the popup counter), set up
        while the first command opens its session and tab rather than after."""
        try:
            await asyncio.shield(self._browser_ready)
        except Exception:  # noqa: BLE001 - the first command reports why the browser did not start
            return
        await self.services.popups.of(self.host.browser)

    def _browser_died(self, why: str) -> None:
        self.exit_code = ExitCode.PAGE_ERROR
        lastexit.record(self.state_dir, why)
        self.request_stop()

    def _write_state_file(self) -> None:
        info = protocol.daemon_info(
            self.pid,
            self.port,
            self.token,
            self.started,
            self.host.mode,
            self.listening.socket,
            self.config,
            self.state_dir,
        )
        try:
            protocol.write_daemon_file(self.state_dir, info)
        except OSError as exc:  # asked again by the next CLI: one line each time, never a traceback
            log.warning("could not write %s: %s", protocol.DAEMON_FILE, exc)

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

    async def _watch_state_dir(self) -> None:
        """A removed workspace takes its daemon along: nothing could reach it any more, and its
        Chromium would run on for the whole idle time."""
        first = _identity(self.state_dir)
        while True:
            await asyncio.sleep(STATE_DIR_CHECK_S)
            if _identity(self.state_dir) != first:
                log.info("the state directory %s is gone: stopping", self.state_dir)
                self.request_stop()
                return

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
            command = CheckedRequest.from_body(await intake.read_command(request))
        except intake.BadRequest as exc:
            return exc.response()
        trace.command_started()
        losses, started = self.reviver.losses, time.monotonic()
        self._in_flight += 1
        early = EARLY.set(httpserver.interim(request))
        try:
            result = await trace.timed("command", self.dispatch(command))
            if await self._lost_under(command, result, losses, started):
                await self.reviver.settled()
                if self._stop.is_set():  # not restarted again: the CLI sends it to a fresh daemon
                    return web.json_response(
                        {"ok": False, "error": "the browser died"}, status=protocol.STOPPING_STATUS
                    )
                failed = self.reviver.failure_for(self.host.sessions.get(command.session))
                result = protocol.failure(failed.message, failed.hint, failed.exit_code)
            tab_closed = str(result["error"]).startswith(TAB_OR_BROWSER_CLOSED)
            if result["exit_code"] == ExitCode.UNAVAILABLE and tab_closed:
                # Only the tab went (the page closed it, or a storm guard did): a failure on the page.
                result["exit_code"] = ExitCode.PAGE_ERROR
                result["error"] = "the tab was closed while the command ran (the browser is still running)"
        finally:
            EARLY.reset(early)
            self._in_flight -= 1
            self._last_active = time.monotonic()
        if self._first_command:
            self._first_command = False
            trace.start_step("first command answered")
        trace.mark("rendering")
        return _render(result, as_json=command.json)

    async def _lost_under(self, command: CheckedRequest, result: Result, losses: int, started: float) -> bool:
        """Whether the browser was lost while the command ran: then it failed, or did not do
        what it says, whatever its result (a `status` that waited for the restart excepted)."""
        if self.reviver.losses != losses:
            return result["exit_code"] != ExitCode.OK or COMMANDS[command.command]["cat"] != "meta"
        if result["exit_code"] == ExitCode.UNAVAILABLE:
            return await self.host.lost()  # a command can fail a moment before Playwright says why
        session = self.host.sessions.get(command.session)
        if session is None or not any(closed.at >= started for closed in session.closed):
            return False
        # A lost Chromium closes every page, then says it is gone: a round trip to the browser
        # through the driver answers only once that news has come, or fails if it is gone.
        return not await self.host.browser_pid() and await self.host.lost(1.0)

    async def dispatch(self, request: CheckedRequest) -> Result:
        """Run one command; the result is the JSON the CLI receives (see `dispatch.Dispatcher`)."""
        return await self.dispatcher.dispatch(request)

    def status_lines(self) -> list[str]:
        sources = (self.reviver, *self.wiring.status)
        return [line for source in sources if (line := source.status_line())]

    def listening_on(self) -> str:
        where = [self.listening.socket] if self.listening.socket else []
        return " and ".join(where + ([f"127.0.0.1:{self.port}"] if self.port else []))

    def on_browser_switched(self) -> None:
        """daemon.json names the browser's mode."""
        self._write_state_file()

    async def wait_for_browser(self) -> None:
        await self.readiness.wait()


def _identity(path: str) -> tuple[int, int]:
    """Which directory `path` is ((0, 0) once there is none): one put in its place is another."""
    try:
        found = os.stat(path, follow_symlinks=False)
    except OSError:
        return (0, 0)
    return (found.st_dev, found.st_ino)


def _render(result: Result, as_json: bool) -> web.Response:
    """The response in the form the CLI prints (see `refbrowse.protocol`)."""
    headers = {protocol.HEADER_EXIT: str(result["exit_code"])}
    if as_json:
        return web.Response(body=protocol.render_json(result), headers=headers)
    stdout, stderr = protocol.render_text(result)
    headers[protocol.HEADER_STDOUT] = str(len(stdout))
    return web.Response(body=stdout + stderr, headers=headers)
