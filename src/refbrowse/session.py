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
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright

from refbrowse.chromium import INSTALL_HINT, ChromiumNotFound, find_chromium, launch_flags
from refbrowse.errors import Unavailable
from refbrowse.refs import RefMap

log = logging.getLogger("refbrowse")


class Tab:
    """One page of a session, with the lock that keeps its commands in order."""

    _ids = itertools.count(1)

    def __init__(self, page: Page) -> None:
        self.page = page
        self.id = next(self._ids)
        self.lock = asyncio.Lock()
        self.refs = RefMap()


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


class BrowserHost:
    """The one browser of a daemon, launched locally or reached over CDP.

    Handler modules extend sessions through three hook lists: `context_options`
    (extra `new_context` arguments, e.g. a saved storage state), `session_hooks`
    (awaited once a session's context exists) and `tab_hooks` (called for every
    new tab, e.g. to attach event listeners).
    """

    def __init__(self, on_crash: Callable[[], None]) -> None:
        self.context_options: list[ContextOptionsHook] = []
        self.session_hooks: list[SessionHook] = []
        self.tab_hooks: list[TabHook] = []
        self.on_crash = on_crash
        self._closing = False
        self._playwright: Playwright | None = None
        self.browser: Browser | None = None
        self.mode = "headless"
        self.executable = ""
        self.sessions: dict[str, Session] = {}
        self._session_lock = asyncio.Lock()

    async def start(self) -> None:
        self._playwright = await async_playwright().start()
        chromium = self._playwright.chromium
        cdp_url = os.environ.get("BROWSE_CDP_URL")
        if cdp_url:
            self.mode = f"cdp {cdp_url}"
            self.browser = await chromium.connect_over_cdp(cdp_url)
        else:
            self.browser = await self._launch()
        self.browser.on("disconnected", lambda _: self._disconnected())

    async def _launch(self) -> Browser:
        assert self._playwright is not None
        try:
            self.executable = find_chromium()
        except ChromiumNotFound as exc:
            raise Unavailable(str(exc), INSTALL_HINT) from exc
        headed = os.environ.get("BROWSE_HEADED", "") not in ("", "0")
        self.mode = "headed" if headed else "headless"
        proxy = os.environ.get("BROWSE_PROXY")
        return await self._playwright.chromium.launch(
            executable_path=self.executable,
            headless=not headed,
            args=launch_flags(),
            proxy={"server": proxy} if proxy else None,
        )

    def _disconnected(self) -> None:
        if not self._closing:
            log.error("the browser disconnected: the daemon exits")
            self.on_crash()

    async def session(self, name: str) -> Session:
        async with self._session_lock:
            if name not in self.sessions:
                if self.browser is None:
                    raise Unavailable("the browser is not running", "run `browse restart`")
                options: dict[str, Any] = {}
                for contribute in self.context_options:
                    options.update(await contribute(name))
                context = await self.browser.new_context(**options)
                session = Session(name, context, self.tab_hooks)
                self.sessions[name] = session
                for hook in self.session_hooks:
                    await hook(session)
            return self.sessions[name]

    async def lost(self, within_s: float = 0.5) -> bool:
        """True when the browser has gone away, or goes within `within_s` seconds.

        A command that failed because Chromium died can fail a moment before
        Playwright reports the disconnection; this waits that moment out.
        """
        if self.browser is None:
            return False  # never started: not lost, and the reason is in the command's error
        for _ in range(int(within_s / 0.025)):
            if not self.browser.is_connected():
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


async def _quietly(step: Awaitable[object]) -> None:
    """Shutdown steps: a browser that is already gone must not stop the rest."""
    try:
        await step
    except Exception as exc:  # noqa: BLE001 - shutdown goes on whatever one step says
        log.info("shutdown step failed: %s", exc)
