"""Playwright's lifecycle: one Chromium, one browser context per session, its tabs.

The daemon owns one `BrowserHost`. Each `--session NAME` gets a `Session`: its
own context (cookies, storage), tabs and refs. Each tab has a lock so that
commands on one tab run one at a time. If Chromium dies, the host tells the
daemon, which exits: the next command starts a fresh one.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from playwright.async_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    ProxySettings,
    WebSocket,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError
from playwright.async_api._context_manager import PlaywrightContextManager

from refbrowse.daemon import carry, driver, extension, trace
from refbrowse.daemon.chromium import (
    INSTALL_HINT,
    LEFT_OUT_DEFAULTS,
    ChromiumNotFound,
    find_chromium,
    launch_flags,
)
from refbrowse.daemon.headed import MARKER_SCRIPT, VirtualDisplay, needs_virtual_display
from refbrowse.daemon.refs import RefMap
from refbrowse.daemon.target import (
    CHANNEL_NAMES,
    BrowserTarget,
    channel_path,
    from_env,
    recalled,
    remember,
    scrub,
)
from refbrowse.errors import Unavailable
from refbrowse.protocol import SECRET_ENV

if TYPE_CHECKING:
    import subprocess

    from refbrowse.daemon.snapshot.prepared import Reading

log = logging.getLogger("refbrowse")

CONNECT_TIMEOUT_MS = 15_000
RESTORE_TIMEOUT_S = 15.0  # a saved state the browser cannot take back in this time is set aside


class Tab:
    """One page of a session, with the lock that keeps its commands in order."""

    _ids = itertools.count(1)

    def __init__(self, page: Page) -> None:
        self.page = page
        self.id = next(self._ids)
        self.lock = asyncio.Lock()
        self.refs = RefMap()
        self.reading: Reading | None = None  # the page as last read for a snapshot (see snapshot/prepared.py)
        self.commands = 0  # commands started on this tab: a background read waits for none to come first
        self.sockets: list[WebSocket] = []  # the page's open WebSockets: an action awaits their answers
        page.on("websocket", self._socket_opened)

    def _socket_opened(self, socket: WebSocket) -> None:
        self.sockets.append(socket)
        socket.on("close", lambda _: self._socket_closed(socket))

    def _socket_closed(self, socket: WebSocket) -> None:
        if socket in self.sockets:
            self.sockets.remove(socket)


TabHook = Callable[["Session", Tab], None]
SessionHook = Callable[["Session"], Awaitable[None]]
ContextOptionsHook = Callable[[str], Awaitable[dict[str, Any]]]


class Session:
    def __init__(self, name: str, context: BrowserContext, tab_hooks: list[TabHook]) -> None:
        self.name = name
        self.context = context
        self.tabs: list[Tab] = []
        self.current: Tab | None = None
        self._tab_hooks = tab_hooks
        context.on("page", self._adopt)

    def _adopt(self, page: Page) -> None:
        """Pages the site opens (target=_blank, window.open) become tabs too."""
        if any(tab.page is page for tab in self.tabs):
            return
        tab = Tab(page)
        self.tabs.append(tab)
        page.on("close", lambda _: self.forget(tab))
        for hook in self._tab_hooks:
            hook(self, tab)

    def forget(self, tab: Tab) -> None:
        if tab in self.tabs:
            index = self.tabs.index(tab)
            self.tabs.remove(tab)
            if self.current is tab:
                self.current = self.tabs[min(index, len(self.tabs) - 1)] if self.tabs else None

    async def new_tab(self) -> Tab:
        page = await self.context.new_page()
        self._adopt(page)
        tab = next(t for t in self.tabs if t.page is page)
        self.current = tab
        return tab

    async def current_tab(self) -> Tab:
        if self.current is None or self.current.page.is_closed():
            self.current = self.tabs[-1] if self.tabs else await self.new_tab()
        return self.current

    def number(self, tab: Tab) -> int:
        return self.tabs.index(tab) + 1

    def rebind(self, context: BrowserContext) -> list[Tab]:
        """Move the session to an empty `context`; the tabs it had, for `reopened`."""
        old_tabs = self.tabs
        self.context, self.tabs, self.current = context, [], None
        context.on("page", self._adopt)
        return old_tabs

    def reopened(self, old_tabs: list[Tab], pages: list[Page], current: int, why: str) -> None:
        """`pages`, opened in the new context, stand in for `old_tabs`, in order.

        Each new tab keeps its predecessor's ref map with every ref retired, so
        numbers are never reused and an old ref fails saying `why`.
        """
        for page in pages:
            self._adopt(page)
        by_page = {tab.page: tab for tab in self.tabs}
        ordered = [by_page[page] for page in pages if page in by_page]
        self.tabs = ordered + [tab for tab in self.tabs if tab not in ordered]
        for old, new in zip(old_tabs, ordered, strict=False):
            new.refs = old.refs
            new.refs.retire_all(why)
        if self.tabs:
            self.current = self.tabs[current if 0 <= current < len(ordered) else -1]


class BrowserHost:
    """The one browser of a daemon: launched here (headless or headed) or reached remotely.

    Handler modules extend sessions through three hook lists: `context_options`
    (extra `new_context` arguments, e.g. a saved storage state), `session_hooks`
    (awaited once a session's context exists) and `tab_hooks` (called for every
    new tab, e.g. to attach event listeners). `switch` replaces the browser under
    running sessions, carrying their state over (see `carry`).
    """

    def __init__(self, on_crash: Callable[[], None], state_dir: str = "") -> None:
        self.state_dir = state_dir  # where a run-time choice of browser is remembered; "" for none
        self.context_options: list[ContextOptionsHook] = []
        self.session_hooks: list[SessionHook] = []
        self.tab_hooks: list[TabHook] = []
        # called with (session, reason) when the browser refuses a session's saved state
        self.state_refused: list[Callable[[str, str], None]] = []
        self.switched: list[Callable[[], None]] = []  # called once `switch` has replaced the browser
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
            where += f"; display {self.display.display}, a private Xvfb"
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
            browser, executable = await self._connect(target), ""
            self.extension_id = ""
        else:
            browser, executable = await self._launch(target)
        browser.on("disconnected", self._disconnected)
        return browser, executable

    async def _connect(self, target: BrowserTarget) -> Browser:
        assert self._playwright is not None
        chromium = self._playwright.chromium
        log.info("connecting to the remote browser at %s", target.endpoint)
        try:
            if target.cdp_url:
                return await chromium.connect_over_cdp(target.cdp_url, timeout=CONNECT_TIMEOUT_MS)
            return await chromium.connect(target.ws_endpoint, timeout=CONNECT_TIMEOUT_MS)
        except PlaywrightError as exc:
            first = scrub(exc.message.strip().splitlines()[0] if exc.message.strip() else "no answer")
            variable = "BROWSE_CDP_URL" if target.cdp_url else "BROWSE_WS_ENDPOINT"
            chosen = target != from_env()  # by `connect --cdp`, not by the environment
            hint = "run `browse disconnect` to use a local browser" if chosen else f"check {variable}"
            raise Unavailable(
                f"cannot reach the remote browser at {target.endpoint}: {first}",
                f"check that it is running, or {hint}",
            ) from exc

    async def _launch(self, target: BrowserTarget) -> tuple[Browser, str]:
        assert self._playwright is not None
        executable = self._executable(target)
        env = None
        if target.headed and needs_virtual_display():
            env = {k: v for k, v in os.environ.items() if k not in SECRET_ENV}
            env["DISPLAY"] = await self.display.start()
        browser = await self._playwright.chromium.launch(
            executable_path=executable,
            headless=not target.headed,
            args=launch_flags() + list(extension.HEADED_FLAGS if target.headed else ()),
            ignore_default_args=[*LEFT_OUT_DEFAULTS, *(extension.LEFT_OUT_FLAGS if target.headed else ())],
            proxy=proxy_settings(target.proxy),
            env=env,  # type: ignore[arg-type]
        )
        self.extension_id = await extension.load(browser) if target.headed else ""
        return browser, executable

    @staticmethod
    def _executable(target: BrowserTarget) -> str:
        if target.channel:
            found = channel_path(target.channel)
            if not found:
                name = CHANNEL_NAMES.get(target.channel, target.channel)
                raise Unavailable(f"{name} is not installed here", "run `browse connect` to use Chromium")
            return found
        try:
            return find_chromium()
        except ChromiumNotFound as exc:
            raise Unavailable(str(exc), INSTALL_HINT) from exc

    def _disconnected(self, browser: Browser) -> None:
        if browser is self.browser:
            self._gone("the browser disconnected")

    def _gone(self, why: str) -> None:
        if not self._closing and not self.gone:
            self.gone = why
            log.error("%s: the daemon exits", why)
            self.on_crash()

    async def _new_context(self, name: str, storage: dict[str, Any] | None = None) -> BrowserContext:
        assert self.browser is not None
        options: dict[str, Any] = {}
        for contribute in self.context_options:
            options.update(await contribute(name))
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
            states = {name: await _capture(session) for name, session in self.sessions.items()}
            old, old_target = self.browser, self.target
            try:
                browser, executable = await self._open(target)
            except BaseException:
                if not old_target.headed:  # an Xvfb started for the browser that did not come up
                    await asyncio.to_thread(self.display.stop)
                raise
            self.browser, self.target, self.executable = browser, target, executable
            if self.state_dir:
                remember(self.state_dir, target)
            why = f"is from before the switch to a {target.mode} browser"
            for name, session in self.sessions.items():
                old_tabs = session.rebind(await self._new_context(name, states[name].storage))
                for hook in self.session_hooks:  # before any page loads: they may gate requests
                    await hook(session)
                pages = await carry.restore(session.context, states[name], nav_timeout_ms)
                session.reopened(old_tabs, pages, states[name].current, why)
            if old is not None:
                await _quietly(old.close())  # a remote browser is only disconnected from, never closed
            if old_target.headed and not target.headed:
                await asyncio.to_thread(self.display.stop)
        for tell in self.switched:
            tell()

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
            raise Unavailable("the browser is not running", "run `browse restart`")
        context = await self._new_context(name)
        async with self._session_lock:
            if self.browser is not browser:  # switched meanwhile: open it in the new browser
                await _quietly(context.close())
                context = await self._new_context(name)
            session = Session(name, context, self.tab_hooks)
            self.sessions[name] = session
            for hook in self.session_hooks:
                await hook(session)
            if len(self.sessions) == 1:
                trace.start_step("first session opened")

    async def _open_context(self, name: str, options: dict[str, Any]) -> BrowserContext:
        """A saved state the browser refuses, or takes too long to restore, never keeps the
        session from opening: it opens clean, and the state is set aside."""
        assert self.browser is not None
        if "storage_state" not in options:
            return await self.browser.new_context(**options)
        opening = asyncio.ensure_future(self.browser.new_context(**options))
        try:
            return await asyncio.wait_for(asyncio.shield(opening), RESTORE_TIMEOUT_S)
        except TimeoutError:
            opening.add_done_callback(_close_late_context)
            why = f"not restored (restoring it took over {RESTORE_TIMEOUT_S:.0f} s)"
        except PlaywrightError as exc:
            reason = exc.message.splitlines()[0] if exc.message else "no reason given"
            why = f"unreadable (the browser refused it: {reason})"
        for refused in self.state_refused:
            refused(name, why)
        options.pop("storage_state")
        return await self.browser.new_context(**options)

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
    def version(self) -> str:
        return self.browser.version if self.browser else ""

    async def close(self) -> None:
        self._closing = True
        for session in list(self.sessions.values()):
            await _quietly(session.context.close())
        if self.browser is not None:
            await _quietly(self.browser.close())
        if self._playwright is not None:
            await _quietly(self._playwright.stop())
        await asyncio.to_thread(self.display.stop)


_LATE_CLOSES: set[asyncio.Task[None]] = set()


def _close_late_context(opening: asyncio.Future[BrowserContext]) -> None:
    """A context whose restore was given up on still opens later: close it then."""
    if not opening.cancelled() and opening.exception() is None:
        closing = asyncio.ensure_future(_quietly(opening.result().close()))
        _LATE_CLOSES.add(closing)
        closing.add_done_callback(_LATE_CLOSES.discard)


async def _capture(session: Session) -> carry.SessionState:
    current = session.current.page if session.current else None
    return await carry.capture(session.context, [tab.page for tab in session.tabs], current)


@contextmanager
def without_secrets() -> Iterator[None]:
    """Keep `protocol.SECRET_ENV` out of the environment of processes started meanwhile
    (Playwright's driver, and through it Chromium): /proc shows it for their whole life."""
    saved = {k: os.environ.pop(k) for k in SECRET_ENV if k in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def proxy_settings(url: str) -> ProxySettings | None:
    """Playwright's proxy settings for `url`, its credentials apart from the server:
    in the server string they would reach Chromium's command line."""
    if not url:
        return None
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.username is None:
        return {"server": url}
    host = parts.hostname or ""
    server = f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
    return {"server": server, "username": unquote(parts.username), "password": unquote(parts.password or "")}


async def _quietly(step: Awaitable[object]) -> None:
    """Shutdown steps: a browser that is already gone must not stop the rest."""
    try:
        await step
    except Exception as exc:  # noqa: BLE001 - shutdown goes on whatever one step says
        log.info("shutdown step failed: %s", exc)
