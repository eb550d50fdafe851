"""After Playwright's driver or Chromium is lost: new ones, and every session back as it was saved.

A page can crash the driver (a huge result) or Chromium (its memory), and the
OOM killer can end either. The daemon stays up: `Reviver` has the host start a
new driver and browser, reopens each session's context from its latest saved
state (cookies and storage, see `events.ContextOptionSource`) and its tabs at
the URLs they showed. A tab that had a command running when the browser was
lost, or that was loading when it was lost again, may be what killed it: it is
not reopened, and that is said. The command in flight, and the next command of
every session, fail once with one line saying what happened; `status` keeps
saying it. Past `MAX_RESTARTS` losses within `WINDOW_S`, restarting stops and
the daemon ends (see `lastexit`): a page that kills the browser on load must
not make it loop for ever.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.errors import BrowseError, Unavailable

log = logging.getLogger("refbrowse")

MAX_RESTARTS = 3  # within WINDOW_S; one more loss ends the daemon
WINDOW_S = 60.0
REOPEN_TIMEOUT_MS = 15_000  # per tab: a page that does not load in this time stays as it is
HINT = "run the command again (refs from before the restart are gone: take a new snapshot)"
RETIRED = "is from before the browser was restarted"


class _LostAgain(Exception):
    """The new browser was lost too while the sessions were being reopened."""


@dataclass
class SessionPlan:
    """What one session showed when the browser was lost: the tabs to reopen and their URLs."""

    tabs: list[tuple[Tab, str]]
    current: int  # index into `tabs`; -1 for the last
    left: list[str] = field(default_factory=list)  # the URLs not reopened, each with why


@dataclass(frozen=True, slots=True)
class Restart:
    at: float  # epoch seconds
    why: str
    left: tuple[str, ...]


class Reviver:
    """Restarts the lost browser under the running sessions, a bounded number of times."""

    def __init__(self, host: BrowserHost, give_up: Callable[[str], None]) -> None:
        self.host = host
        self.give_up = give_up  # ends the daemon, saying why
        self.losses = 0  # counted as they are heard of: a command that saw it change overlapped one
        self.restarts: list[Restart] = []
        self._started: list[float] = []  # monotonic times of the restarts tried, for the bound
        self._plans: dict[str, SessionPlan] = {}
        self._loading: tuple[str, Tab, str] | None = None  # the tab being reopened: session, tab, URL
        self._task: asyncio.Task[None] | None = None
        self.stopped = False  # set once the daemon stops: nothing is restarted then

    def on_loss(self) -> None:
        """The host lost its driver or browser (`host.gone` says which): restart, unless under way."""
        self.losses += 1
        if self.stopped:  # the daemon is ending anyway
            return
        if self.host.target.remote:  # not ours to restart: the next daemon reaches it again, or says why
            self.give_up(self.host.gone)
            return
        if self._task is None or self._task.done():
            # Taken now, while the commands that were running still hold their tabs' locks.
            self._plans = {name: _plan(session) for name, session in self.host.sessions.items()}
            self._task = asyncio.ensure_future(self._revive(self.host.gone))

    async def settled(self) -> None:
        """Wait for a restart under way to end (restored, or given up on)."""
        task = self._task
        if task is not None and not task.done():
            await asyncio.shield(task)

    @property
    def reviving(self) -> bool:
        return self._task is not None and not self._task.done()

    def failure_for(self, session: Session | None) -> BrowseError:
        """The failure of a command that was running when the browser was lost."""
        owed = session.take_revived() if session is not None else None
        if owed is not None:
            return owed
        why = self.restarts[-1].why if self.restarts else "it went away"
        return Unavailable(f"the browser was lost ({why}) and has been restarted", HINT)

    async def _revive(self, why: str) -> None:
        while self.host.gone:
            over = self._over_bound()
            if over:
                self.give_up(over)
                return
            log.warning("restarting the browser (%s)", self.host.gone)
            try:
                await self.host.relaunch()
            except Exception as exc:  # noqa: BLE001 - whatever kept it from starting ends the daemon
                self.give_up(f"{why}; a new browser did not start: {_first_line(exc)}")
                return
            try:
                await self._restore_all(why)
            except Exception as exc:  # noqa: BLE001 - lost again while reopening, or the end
                if not self.host.gone:
                    self.give_up(f"{why}; the sessions could not be reopened: {_first_line(exc)}")
                    return
                self._set_loading_aside()

    def _over_bound(self) -> str:
        """Why no restart is tried this time ("" to try one, which is then counted)."""
        now = time.monotonic()
        self._started = [t for t in self._started if now - t < WINDOW_S]
        if len(self._started) >= MAX_RESTARTS:
            count = len(self._started) + 1
            return (
                f"the browser was lost {count} times within {WINDOW_S:.0f} s "
                f"(last: {self.host.gone}); it is not restarted again"
            )
        self._started.append(now)
        return ""

    async def _restore_all(self, why: str) -> None:
        saved = {name: self._saved_at(name) for name in self._plans}
        for name, plan in self._plans.items():
            session = self.host.sessions.get(name)
            if session is not None:
                await self._restore(session, plan)
        left = [url for plan in self._plans.values() for url in plan.left]
        self.restarts.append(Restart(time.time(), why, tuple(left)))
        for name, plan in self._plans.items():
            session = self.host.sessions.get(name)
            if session is not None:
                session.revived = Unavailable(_message(name, why, saved[name], plan.left), HINT)
        for follower in self.host.events.switch_followers:  # the browser was replaced, as by a switch
            follower.on_browser_switched()
        log.warning("browser restarted; %d session(s) restored", len(self._plans))

    async def _restore(self, session: Session, plan: SessionPlan) -> None:
        await self.host.renew_session(session)
        kept: list[Tab] = []
        pages: list[Page] = []
        for tab, url in plan.tabs:
            page = await session.context.new_page()
            for carrier in self.host.events.tab_carriers:
                carrier.on_tab_carried(tab.page, page)
            self._loading = (session.name, tab, url)
            await _open(page, url)
            if self.host.gone:
                raise _LostAgain(url)
            self._loading = None
            kept.append(tab)
            pages.append(page)
        session.reopened(kept, pages, plan.current, RETIRED)

    def _set_loading_aside(self) -> None:
        """The browser was lost again while a tab was loading: that tab is not reopened again."""
        if self._loading is None:
            return
        name, tab, url = self._loading
        self._loading = None
        plan = self._plans[name]
        plan.tabs = [(t, u) for t, u in plan.tabs if t is not tab]
        plan.current = -1
        plan.left.append(f"{url} (the browser was lost again while it loaded)")

    def _saved_at(self, session: str) -> float:
        return max((clock.saved_at(session) for clock in self.host.events.saved_states), default=0.0)

    def status_line(self) -> str:
        if self.reviving:
            return "browser: being restarted after it was lost"
        if not self.restarts:
            return ""
        last = self.restarts[-1]
        count = len(self.restarts)
        line = (
            f"browser: restarted {count} time{'s' if count > 1 else ''}; last at "
            f"{_clock(last.at)} after it was lost ({last.why})"
        )
        return line + (f"; not reopened: {', '.join(last.left)}" if last.left else "")


def _plan(session: Session) -> SessionPlan:
    """The session's tabs to reopen; one that had a command running may be what killed the browser."""
    tabs: list[tuple[Tab, str]] = []
    left: list[str] = []
    before, was_current = session.tabs_before_loss()
    for tab, busy in before:
        if busy:
            left.append(f"{tab.page.url} (a command was running on it)")
        else:
            tabs.append((tab, tab.page.url))
    current = next((i for i, (tab, _) in enumerate(tabs) if tab is was_current), -1)
    return SessionPlan(tabs, current, left)


async def _open(page: Page, url: str) -> None:
    if not url or url == "about:blank":
        return
    try:
        await page.goto(url, wait_until="load", timeout=REOPEN_TIMEOUT_MS)
    except PlaywrightError as exc:  # the tab stays on whatever loaded: `tabs` shows it
        log.warning("tab %s did not load again after the restart: %s", url, exc.message.splitlines()[0])


def _message(session: str, why: str, saved: float, left: list[str]) -> str:
    state = f"from its state saved at {_clock(saved)}" if saved else "clean (it had no saved state)"
    text = f"the browser was lost ({why}) and has been restarted; session {session} was restored {state}"
    return text + (f"; not reopened: {', '.join(left)}" if left else "")


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _clock(epoch: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(epoch))
