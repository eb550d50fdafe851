"""The daemon's server: HTTP on 127.0.0.1, auth, dispatch, idle timer, state file.

`refbrowse.daemon` starts the browser, then builds a `Daemon` from this module
(imported while the browser launches). The daemon exits when told to stop,
after `BROWSE_IDLE_TIMEOUT` ms without a command, or when Chromium dies.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from playwright.async_api import Error as PlaywrightError

from refbrowse import __version__
from refbrowse.errors import ActionTimeout, BrowseError, Unavailable, UsageError
from refbrowse.exitcodes import ExitCode
from refbrowse.handlers import Call, load_all
from refbrowse.pwerrors import translate
from refbrowse.registry import COMMANDS
from refbrowse.session import BrowserHost, Session
from refbrowse.workspace import config_hash, daemon_file, launch_config, write_private_file

log = logging.getLogger("refbrowse")

DEFAULT_IDLE_MS = 30 * 60 * 1000
DEFAULT_ACTION_MS = 5_000
DEFAULT_NAV_MS = 30_000
SLACK_MS = 10_000  # beyond a command's own timeouts, before the daemon gives up on it

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _env_ms(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        log.warning("%s is not a number of milliseconds; using %d", name, default)
        return default


class Daemon:
    def __init__(self, state_dir: str, host: BrowserHost, browser_ready: asyncio.Task[None]) -> None:
        self.state_dir = state_dir
        self.pid = os.getpid()
        self.port = 0
        self.started = time.time()
        self.token = secrets.token_urlsafe(32)
        self.host = host
        host.on_crash = self._browser_died
        self.after_command: list[Callable[[str, Session | None], None]] = []
        self.on_shutdown: list[Callable[[], Awaitable[None]]] = []
        self.status_lines: list[Callable[[], str]] = []
        self.handlers = load_all(self)
        self.idle_ms = _env_ms("BROWSE_IDLE_TIMEOUT", DEFAULT_IDLE_MS)
        self.action_ms = _env_ms("BROWSE_TIMEOUT", DEFAULT_ACTION_MS)
        self.exit_code = 0
        self._stop = asyncio.Event()
        self._browser_ready = browser_ready
        self._last_active = time.monotonic()
        self._in_flight = 0

    # lifecycle

    async def run(self) -> int:
        runner = web.AppRunner(self._app(), handler_cancellation=True, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", int(os.environ.get("BROWSE_PORT") or 0))
        await site.start()
        self.port = runner.addresses[0][1]
        self._write_state_file()
        for signum in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(signum, self.request_stop)
        idle = asyncio.create_task(self._watch_idle())
        log.info("daemon %d listening on 127.0.0.1:%d", self.pid, self.port)
        await self._stop.wait()
        idle.cancel()
        self._remove_state_file()
        await runner.cleanup()
        for hook in self.on_shutdown:
            try:
                await hook()
            except Exception:
                log.exception("shutdown hook failed")
        await self.host.close()
        log.info("daemon %d exits (%d)", self.pid, self.exit_code)
        return self.exit_code

    def request_stop(self) -> None:
        self._stop.set()

    def idle_seconds_left(self) -> float:
        return self.idle_ms / 1000 - (time.monotonic() - self._last_active)

    def _browser_died(self) -> None:
        self.exit_code = 1
        self.request_stop()

    def _write_state_file(self) -> None:
        state = {
            "pid": self.pid,
            "port": self.port,
            "token": self.token,
            "started": self.started,
            "version": __version__,
            "mode": self.host.mode,
            "config": config_hash(launch_config()),
        }
        write_private_file(daemon_file(self.state_dir), json.dumps(state))

    def _remove_state_file(self) -> None:
        path = daemon_file(self.state_dir)
        try:
            with open(path) as f:
                ours = json.load(f).get("pid") == self.pid
            if ours:
                os.remove(path)
        except (OSError, ValueError):
            pass

    async def _watch_idle(self) -> None:
        while True:
            left = self.idle_seconds_left()
            if left <= 0 and self._in_flight == 0:
                log.info("idle for %d ms: stopping", self.idle_ms)
                self.request_stop()
                return
            await asyncio.sleep(max(left, 0.05))

    # HTTP

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/health", self._health)
        app.router.add_post("/command", self._command)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Only this machine's CLI: right Host, no browser Origin, and the token."""
        allowed_hosts = (f"127.0.0.1:{self.port}", f"localhost:{self.port}")
        if request.headers.get("Host") not in allowed_hosts or "Origin" in request.headers:
            return web.json_response({"ok": False, "error": "forbidden"}, status=403)
        if request.path != "/health":
            given = request.headers.get("Authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {self.token}".encode()):
                return web.json_response({"ok": False, "error": "unauthorized"}, status=401)
        return await handler(request)

    async def _health(self, request: web.Request) -> web.Response:
        if self._stop.is_set():
            return web.json_response({"ok": False, "stopping": True}, status=503)
        return web.json_response({"ok": True, "version": __version__})

    async def _command(self, request: web.Request) -> web.Response:
        if self._stop.is_set():
            # The CLI waits for this daemon to exit and sends the command to a fresh one.
            return web.json_response({"ok": False, "error": "stopping"}, status=503)
        self._in_flight += 1
        body: dict[str, Any] = {}
        try:
            parsed = await request.json()
            body = parsed if isinstance(parsed, dict) else {}
            result = await self.dispatch(body)
            if result["exit_code"] == ExitCode.UNAVAILABLE and await self.host.lost():
                # Chromium died under this command: the CLI sends it again to a fresh daemon.
                self.request_stop()
                return web.json_response({"ok": False, "error": "the browser died"}, status=503)
        except ValueError:
            result = _failure(UsageError("the request body is not JSON", "use the `browse` CLI"))
        finally:
            self._in_flight -= 1
            self._last_active = time.monotonic()
        return _render(result, as_json=bool(body.get("json")))

    # dispatch

    async def dispatch(self, body: dict[str, Any]) -> dict[str, Any]:
        """Run one command; the result is the JSON the CLI receives."""
        name = str(body.get("command"))
        if name not in self.handlers:
            return _failure(UsageError(f"unknown command: {name}", "run `browse help`"))
        timeout_ms = body.get("timeout") if isinstance(body.get("timeout"), int) else None
        limit = (timeout_ms or max(self.action_ms, DEFAULT_NAV_MS)) + SLACK_MS
        nested = bool(COMMANDS[name].get("nested"))  # its steps are dispatched, each with its own limit
        try:
            output = await asyncio.wait_for(
                self._execute(name, body, timeout_ms), None if nested else limit / 1000
            )
        except BrowseError as exc:
            return _failure(exc)
        except PlaywrightError as exc:
            return _failure(translate(exc, f"running {name}"))
        except TimeoutError:
            return _failure(
                ActionTimeout(f"{name} did not finish in {limit} ms", "retry with a larger --timeout")
            )
        except Exception as exc:
            log.exception("internal error in %s", name)
            return _failure(
                BrowseError(f"internal error in {name}: {exc}", f"see {self.state_dir}/daemon.log")
            )
        return {"ok": True, "output": output, "error": "", "hint": "", "exit_code": 0}

    async def _execute(self, name: str, body: dict[str, Any], timeout_ms: int | None) -> str:
        session_name = str(body.get("session") or "default")
        meta = COMMANDS[name]["cat"] == "meta"
        if meta:
            session = self.host.sessions.get(session_name)
            tab = session.current if session else None
        else:
            await self.wait_for_browser()
            session = await self.host.session(session_name)
            tab = await session.current_tab()
        call = Call(
            name=name,
            args=[str(arg) for arg in body.get("args") or []],
            flags=dict(body.get("flags") or {}),
            raw=bool(body.get("raw")),
            json=bool(body.get("json")),
            stdin=body["stdin"] if isinstance(body.get("stdin"), str) else None,
            action_timeout_ms=timeout_ms or self.action_ms,
            nav_timeout_ms=timeout_ms or DEFAULT_NAV_MS,
            daemon=self,
            current_session=session,
            current_tab=tab,
        )
        try:
            # A nested command dispatches other commands, which take the tab's lock themselves.
            if meta or tab is None or COMMANDS[name].get("nested"):
                return await self.handlers[name](call)
            async with tab.lock:
                tab.page.set_default_timeout(call.action_timeout_ms)
                tab.page.set_default_navigation_timeout(call.nav_timeout_ms)
                return await self.handlers[name](call)
        finally:
            for hook in self.after_command:
                hook(name, session)

    async def wait_for_browser(self) -> None:
        try:
            await asyncio.shield(self._browser_ready)
        except BrowseError:
            self.request_stop()  # the next command starts afresh, after the user fixes the cause
            raise
        except PlaywrightError as exc:
            self.request_stop()
            raise Unavailable(
                f"the browser did not start: {exc.message}", f"see {self.state_dir}/daemon.log"
            ) from exc


def _render(result: dict[str, Any], as_json: bool) -> web.Response:
    """The response in the form the CLI prints (see `cli`): JSON, or stdout then stderr."""
    headers = {"X-Browse-Exit": str(result["exit_code"])}
    if as_json:
        return web.Response(body=(json.dumps(result) + "\n").encode(), headers=headers)
    out = result["output"]
    stdout = (out if not out or out.endswith("\n") else out + "\n").encode()
    stderr = ""
    if result["error"]:
        stderr = f"error: {result['error']}\n" + (f"hint: {result['hint']}\n" if result["hint"] else "")
    headers["X-Browse-Stdout"] = str(len(stdout))
    return web.Response(body=stdout + stderr.encode(), headers=headers)


def _failure(exc: BrowseError) -> dict[str, Any]:
    return {
        "ok": False,
        "output": str(getattr(exc, "output", "")),  # what a multi-step command printed before failing
        "error": exc.message,
        "hint": exc.hint,
        "exit_code": int(exc.exit_code),
    }
