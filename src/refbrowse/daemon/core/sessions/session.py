"""A session: one browser context (cookies, storage), its tabs and which one is current.

Each `--session NAME` gets one. Pages a site opens become tabs too; every new
tab is shown to the host's tab watchers (see `events`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from playwright.async_api import BrowserContext, Page

from refbrowse.daemon.core.sessions.events import TabWatcher
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.errors import BrowseError

# A lost Chromium closes every page just before it says it is gone: tabs closed this
# recently are put back by `tabs_before_loss`.
CLOSED_WITH_BROWSER_S = 2.0


@dataclass(frozen=True, slots=True)
class ClosedTab:
    at: float  # monotonic
    index: int
    tab: Tab
    current: bool
    busy: bool  # a command was running on it


class Session:
    def __init__(self, name: str, context: BrowserContext, tab_watchers: tuple[TabWatcher, ...]) -> None:
        self.name = name
        self.context = context
        self.tabs: list[Tab] = []
        self.current: Tab | None = None
        self._tab_watchers = tab_watchers
        # Why its tabs were reopened in a new browser: the next command fails with it, once.
        self.revived: BrowseError | None = None
        self.closed: list[ClosedTab] = []  # the last moment's closed tabs, for `tabs_before_loss`
        context.on("page", self._adopt)

    def _adopt(self, page: Page) -> None:
        """Pages the site opens (target=_blank, window.open) become tabs too."""
        if any(tab.page is page for tab in self.tabs):
            return
        tab = Tab(page)
        self.tabs.append(tab)
        page.on("close", lambda _: self.forget(tab))
        for watcher in self._tab_watchers:
            watcher.on_new_tab(self, tab)

    def forget(self, tab: Tab) -> None:
        if tab in self.tabs:
            index = self.tabs.index(tab)
            now = time.monotonic()
            gone = ClosedTab(now, index, tab, self.current is tab, tab.lock.locked())
            self.closed = [c for c in self.closed if now - c.at < CLOSED_WITH_BROWSER_S] + [gone]
            self.tabs.remove(tab)
            if self.current is tab:
                self.current = self.tabs[min(index, len(self.tabs) - 1)] if self.tabs else None

    async def new_tab(self) -> Tab:
        page = await self.context.new_page()
        self._adopt(page)
        tab = next(t for t in self.tabs if t.page is page)
        tab.opened_blank = True
        self.current = tab
        return tab

    async def current_tab(self) -> Tab:
        if self.current is None or self.current.page.is_closed():
            self.current = self.tabs[-1] if self.tabs else await self.new_tab()
        return self.current

    def number(self, tab: Tab) -> int:
        return self.tabs.index(tab) + 1

    def tabs_before_loss(self) -> tuple[list[tuple[Tab, bool]], Tab | None]:
        """The tabs, each with whether a command was running on it, and the current one, as they
        were before the browser was lost: those it closed as it went are put back where they were."""
        now = time.monotonic()
        tabs = [(tab, tab.lock.locked()) for tab in self.tabs]
        current = self.current
        for closed in reversed(self.closed):
            if now - closed.at < CLOSED_WITH_BROWSER_S:
                tabs.insert(min(closed.index, len(tabs)), (closed.tab, closed.busy))
                current = closed.tab if closed.current else current
        return tabs, current

    def take_revived(self) -> BrowseError | None:
        """The failure owed to the next command since the browser was restarted, once."""
        owed, self.revived = self.revived, None
        return owed

    def rebind(self, context: BrowserContext) -> list[Tab]:
        """Move the session to an empty `context`; the tabs it had, for `reopened`."""
        old_tabs = self.tabs
        self.context, self.tabs, self.current, self.closed = context, [], None, []
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
