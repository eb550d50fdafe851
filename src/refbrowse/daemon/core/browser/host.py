"""The daemon's one browser: launched here (headless or headed) or reached remotely, and its sessions.

If Chromium or Playwright's driver dies, the host tells the daemon, which
starts new ones under the same sessions (see `revive`). What other parts add
to each session and tab (saved state, listeners, init scripts) reaches the
host once, as `HostEvents`, from `assemble`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from playwright.async_api import Browser, BrowserContext, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api._context_manager import PlaywrightContextManager

from refbrowse.daemon.core.browser import carry, driver
from refbrowse.daemon.core.browser.contexts import open_context, quietly
from refbrowse.daemon.core.browser.display import MARKER_SCRIPT, VirtualDisplay
from refbrowse.daemon.core.browser.launch import connect, launch, proxy_settings, without_secrets
from refbrowse.daemon.core.browser.target import BrowserTarget, from_env, recalled, remember
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.sessions.events import HostEvents
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.errors import Unavailable

if TYPE_CHECKING:
    import subprocess

log = logging.getLogger("refbrowse")

DRIVER_STOP_S = 5.0  # a lost driver that has not stopped in this time is killed


def not_running() -> Unavailable:
    """The one error for a command that needs the browser while there is none."""
    return Unavailable("the browser is not running", "run `browse restart`")


class BrowserHost:
    """The one browser of a daemon: launched here (headless or headed) or reached remotely.

    Other parts extend sessions and tabs through `events` (see `sessions.events`),
    set once by `wire`. `switch` replaces the browser under running sessions,
    carrying their state over (see `carry`).
    """

    def __init__(self, on_crash: Callable[[], None], state_dir: str = "") -> None:
        self.state_dir = state_dir  # where a run-time choice of browser is remembered; "" for none
        self.events = HostEvents()
        self.on_crash = on_crash
        self._closing = False
        self._playwright: Playwright | None = None
        self.browser: Browser | None = None
        self.driver_pid: int | None = None
        self.early_driver: subprocess.Popen[bytes] | None = None  # started by the bootstrap, see `driver`
        self.gone = ""  # why the browser is gone for good: "" while it lives
        self.target = BrowserTarget()
        self.executable = ""
        self.extension_id = ""  # the extension a local headed browser loaded (see `extension`); "" for none
        self.display = VirtualDisplay()
        self.sessions: dict[str, Session] = {}
        self._session_lock = asyncio.Lock()
        self._opening: dict[str, asyncio.Lock] = {}  # one per session name: a slow restore holds no other

    def wire(self, events: HostEvents) -> None:
        """Set what every session and tab gets (once, by `assemble`, before the first session)."""
        self.events = events

    def _watch_driver(self, manager: PlaywrightContextManager) -> None:
        """Playwright's node driver can die alone (the OOM killer): `Browser` never
        hears of it, so watch the driver's pipe, which Playwright closes then.

        Private to the pinned Playwright version: the client's transport holds the
        driver process, and its close promise resolves when the pipe ends.
        """
        client = manager._client
        if client is None:
            return
        self.driver_pid = client._transport._proc.pid
        client._close_promise.add_done_callback(lambda _: self._gone("the node driver exited"))

    @property
    def mode(self) -> str:
        return self.target.mode

    def describe(self) -> str:
        """The mode and where the browser is, for `status` and the switching commands."""
        if self.target.remote:
            kind = "cdp" if self.target.cdp_url else "playwright server"
            return f"remote ({kind} {self.target.endpoint})"
        where = self.executable
        if self.target.headed and self.display.display:
            where += f"; display {self.display.display}, a private Xvfb (XAUTHORITY={self.display.authority})"
        return f"{self.mode} ({where})" if where else self.mode

    async def browser_pid(self) -> int:
        """The browser process's id, from CDP (Playwright does not say it); 0 if unknown."""
        if self.browser is None:
            return 0
        try:
            cdp = await self.browser.new_browser_cdp_session()
            info = await cdp.send("SystemInfo.getProcessInfo")
            await cdp.detach()
        except PlaywrightError:
            return 0
        return next((int(p["id"]) for p in info.get("processInfo", []) if p.get("type") == "browser"), 0)

    async def start(self, target: BrowserTarget | None = None) -> None:
        manager = async_playwright()
        early, self.early_driver = self.early_driver, None
        with without_secrets(), driver.adopted(early):
            self._playwright = await manager.start()
        trace.start_step("driver connected")
        self._watch_driver(manager)
        kept = recalled(self.state_dir) if self.state_dir else None
        if kept is not None:
            log.info("back to the %s browser a previous daemon was switched to", kept.mode)
        self.target = target or kept or from_env()
        self.browser, self.executable = await self._open(self.target)
        trace.start_step("browser launched")

    async def _open(self, target: BrowserTarget) -> tuple[Browser, str]:
        """A browser for `target`, watched for disconnection, and its executable ("" if remote)."""
        assert self._playwright is not None
        if target.remote:
            browser, executable = await connect(self._playwright, target), ""
            self.extension_id = ""
        else:
            browser, executable, self.extension_id = await launch(self._playwright, target, self.display)
        browser.on("disconnected", self._disconnected)
        return browser, executable

    def _disconnected(self, browser: Browser) -> None:
        if browser is self.browser:
            self._gone("the browser disconnected")

    def _gone(self, why: str) -> None:
        if not self._closing and not self.gone:
            self.gone = why
            log.error("browser lost: %s", why)
            self.on_crash()

    async def relaunch(self) -> None:
        """A new driver and browser for the same target, once the old ones are lost (see `revive`).

        `gone` stays set until the new browser runs: the old driver, stopped
        here, reports its end to a `_gone` that then ignores it.
        """
        old, self._playwright, self.browser = self._playwright, None, None
        if old is not None:
            try:
                await asyncio.wait_for(old.stop(), DRIVER_STOP_S)
            except Exception as exc:  # noqa: BLE001 - a driver that will not stop is killed
                log.info("the lost driver did not stop (%r): killing it", exc)
                if self.driver_pid:  # never 0: that would be this process's whole group
                    with suppress(OSError):
                        os.kill(self.driver_pid, signal.SIGKILL)
        manager = async_playwright()
        with without_secrets():
            self._playwright = await manager.start()
        self._watch_driver(manager)
        self.browser, self.executable = await self._open(self.target)
        self.gone = ""

    async def renew_session(self, session: Session) -> list[Tab]:
        """Move `session` to a new context of the current browser, its saved state restored
        (see `events.ContextOptionSource`); the tabs it had, for `Session.reopened`."""
        old_tabs = session.rebind(await self._new_context(session.name))
        for starter in self.events.session_starters:  # before any page loads: they may gate requests
            await starter.on_new_session(session)
        return old_tabs

    async def _new_context(self, name: str, storage: dict[str, Any] | None = None) -> BrowserContext:
        assert self.browser is not None
        options: dict[str, Any] = {}
        for source in self.events.context_options:
            options.update(await source.context_options(name))
        if storage is not None:
            options["storage_state"] = storage
        if self.target.remote and self.target.proxy:
            options["proxy"] = proxy_settings(self.target.proxy)
        context = await self._open_context(name, options)
        if self.target.headed:
            await context.add_init_script(MARKER_SCRIPT)
        return context

    async def switch(self, target: BrowserTarget, nav_timeout_ms: int) -> None:
        """Replace the browser with one for `target`; every session keeps its state and tabs.

        The new browser is opened before the old one closes: if it cannot start,
        nothing has changed.
        """
        async with self._session_lock:
            states = {name: await _collect_state(session) for name, session in self.sessions.items()}
            old, old_target = self.browser, self.target
            try:
                browser, executable = await self._open(target)
            except BaseException:  # failed or cancelled, then re-raised: nothing of the switch stays
                if not old_target.headed:  # an Xvfb started for the browser that did not come up
                    await asyncio.to_thread(self.display.stop)
                raise
            self.browser, self.target, self.executable = browser, target, executable
            if self.state_dir:
                remember(self.state_dir, target)
            why = f"is from before the switch to a {target.mode} browser"
            for name, session in self.sessions.items():
                old_tabs = session.rebind(await self._new_context(name, states[name].storage))
                for starter in self.events.session_starters:  # before any page loads: they may gate requests
                    await starter.on_new_session(session)
                carriers = [carrier.on_tab_carried for carrier in self.events.tab_carriers]
                pages = await carry.restore(session.context, states[name], nav_timeout_ms, carriers)
                session.reopened(old_tabs, pages, states[name].current, why)
            if old is not None:
                await quietly(old.close())  # a remote browser is only disconnected from, never closed
            if old_target.headed and not target.headed:
                await asyncio.to_thread(self.display.stop)
        for follower in self.events.switch_followers:
            follower.on_browser_switched()

    async def session(self, name: str) -> Session:
        if name not in self.sessions:
            async with self._opening.setdefault(name, asyncio.Lock()):
                if name not in self.sessions:
                    await self._open_session(name)
        return self.sessions[name]

    async def _open_session(self, name: str) -> None:
        """Open a session's context (restoring its state) while other sessions go on."""
        browser = self.browser
        if browser is None:
            raise not_running()
        context = await self._new_context(name)
        async with self._session_lock:
            if self.browser is not browser:  # switched meanwhile: open it in the new browser
                await quietly(context.close())
                context = await self._new_context(name)
            session = Session(name, context, self.events.tab_watchers)
            self.sessions[name] = session
            for starter in self.events.session_starters:
                await starter.on_new_session(session)
            if len(self.sessions) == 1:
                trace.start_step("first session opened")

    async def _open_context(self, name: str, options: dict[str, Any]) -> BrowserContext:
        assert self.browser is not None

        def refused(why: str) -> None:
            for listener in self.events.state_refused:
                listener.on_state_refused(name, why)

        return await open_context(self.browser, options, refused)

    async def lost(self, within_s: float = 0.5) -> bool:
        """True when the browser has gone away, or goes within `within_s` seconds.

        A command that failed because Chromium died can fail a moment before
        Playwright reports the disconnection; this waits that moment out.
        """
        if self.browser is None:
            return False  # never started: not lost, and the reason is in the command's error
        for _ in range(int(within_s / 0.025)):
            if self.gone or not self.browser.is_connected():
                return True
            await asyncio.sleep(0.025)
        return False

    @property
    def devices(self) -> dict[str, dict[str, Any]]:
        """Playwright's device descriptors by name (empty before the driver starts)."""
        return dict(self._playwright.devices) if self._playwright else {}

    @property
    def version(self) -> str:
        return self.browser.version if self.browser else ""

    async def close(self) -> None:
        self._closing = True
        for session in list(self.sessions.values()):
            await quietly(session.context.close())
        if self.browser is not None:
            await quietly(self.browser.close())
        if self._playwright is not None:
            await quietly(self._playwright.stop())
        await asyncio.to_thread(self.display.stop)


async def _collect_state(session: Session) -> carry.CarriedSession:
    current = session.current.page if session.current else None
    return await carry.collect_state(session.context, [tab.page for tab in session.tabs], current)
