"""A stuck tab never takes the session with it: detect it, replace it, say so.

A page can wedge its tab: `while(true){}` never yields, a loop of `alert()`
keeps the renderer inside modal dialogs, a storm of `window.open` fills the
tab list. Playwright then waits on the page until each command's timeout,
every time. Measured here: neither `Runtime.terminateExecution` from a fresh
DevTools session nor answering the dialogs gets such a page back, but closing
it (without `beforeunload`) takes ~40 ms whatever its script does. So:

- `guard` runs a command on a tab; if it is still running after `PROBE_AFTER_S`
  (and it changes the page: a read is only ever ended by its own time bound),
  the page is probed (`evaluate("1")`); a page that does not answer within
  `PROBE_TIMEOUT_S` is stuck, and the tab is reopened at about:blank in the
  same place of the tab list (a page stuck while being left, in `beforeunload`,
  holds a new tab back until it is closed: it is then closed first). The
  command fails saying so; the next one works.
  The note is on stderr, so page text on stdout stays as the page gave it.
- A tab that shows more than `DIALOG_LIMIT` dialogs in `STORM_WINDOW_S`, or
  whose renderer crashes, is reopened the same way without waiting for a
  command; the next command on the session carries a note saying so.
- A command still running after `PROBE_AFTER_S` on a page that answers while a
  cross-site frame of it does not: that frame's renderer (found by its never
  sleeping, see `core.browser.renderers`) is paused, the frame emptied (it moves to its
  page's renderer), and the paused one killed, with a note; a read that failed
  on the frame meanwhile runs again.
- `leave` is asked before a `goto`: a page (or any of its frames, a cross-site
  one included) that does not answer within `LEAVE_PROBE_S` is closed and the
  new URL opens in a fresh tab, in a fresh renderer, instead of waiting on it.
- A session that gets more than `POPUP_LIMIT` new tabs in `POPUP_WINDOW_S`
  closes the ones of the storm so far, and new ones as they come for
  `POPUP_COOLDOWN_S`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from urllib.parse import urlsplit

from playwright.async_api import ElementHandle, Frame
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser import driverstate, renderers
from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.runtime.logbuffer import RateBreaker
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.errors import PageError
from refbrowse.registry import COMMANDS

log = logging.getLogger("refbrowse")

PROBE_AFTER_S = 5.0
PROBE_TIMEOUT_S = 20.0  # loading a 100,000-node page kept the renderer busy 15 s on a loaded machine
HEAVY_PROBE_TIMEOUT_S = 30.0  # with PROBE_AFTER_S, still inside a command's own limit


def probe_timeout_s() -> float:
    """`PROBE_TIMEOUT_S`, or `BROWSE_STUCK_TIMEOUT` (ms) when it is a number."""
    try:
        return max(1, int(os.environ["BROWSE_STUCK_TIMEOUT"])) / 1000
    except (KeyError, ValueError):
        return PROBE_TIMEOUT_S


CLOSE_TIMEOUT_S = 5.0
NEW_TAB_WAIT_S = 1.0  # a fresh tab opens in well under this unless the stuck one holds it back
STORM_WINDOW_S = 2.0
DIALOG_LIMIT = 10
LEAVE_PROBE_S = 1.0  # how long a page being left may take to answer before it is closed instead
FRAMES_PROBED = 20
FRAME_PROBE_S = 5.0  # a cross-site frame busy this long while its page answers has its renderer stopped
FRAME_STOP_GRACE_S = 5.0  # a crash said this soon after a hung frame's renderer was stopped is that one
POPUP_LIMIT = 20
POPUP_WINDOW_S = 10.0
POPUP_COOLDOWN_S = 30.0  # new tabs are closed as they come for this long after a storm


class TabStuck(PageError):
    pass


class GuardWatch:
    """What the tab guard remembers of one tab (in its `TabMemory`)."""

    def __init__(self) -> None:
        self.born = 0.0  # when the tab opened (monotonic): a popup storm closes the tabs it just opened
        self.replacing = False  # a reopen of this tab is under way
        self.frame_stopped = -FRAME_STOP_GRACE_S  # when the renderer of a hung frame was last stopped


class TabGuard:
    """One per daemon: the storm breakers of each tab and session, and the notes owed to sessions."""

    def __init__(self, host: BrowserHost) -> None:
        self.host = host
        self.notes: dict[str, list[str]] = {}
        self.recoveries = 0
        self._popups: dict[str, RateBreaker] = {}

    # running a command

    async def guard(
        self, session: Session, tab: Tab, run: Callable[[], Awaitable[str]], command: str = ""
    ) -> str:
        """The command's output; `TabStuck` if the page stopped answering while it ran. A read
        that was inside a frame whose renderer was stopped meanwhile fails with it: it runs again."""
        heavy = command in COMMANDS and bool(
            COMMANDS[command].get("heavy")
        )  # a long script of its own keeps the renderer busy
        patience = probe_timeout_s() + (HEAVY_PROBE_TIMEOUT_S - PROBE_TIMEOUT_S if heavy else 0.0)
        task, stopped = asyncio.ensure_future(run()), False
        try:
            done, _ = await asyncio.wait({task}, timeout=PROBE_AFTER_S)
            while not done:
                # Every round: a frame may turn busy after the first look, and a look may find a
                # hung frame but not yet stop it (its page slow to answer under load).
                stopped = await self.crash_hung_frames(session, tab) or stopped
                if reads_only(command):  # the agent's own read never throws the page away
                    done, _ = await asyncio.wait({task}, timeout=PROBE_AFTER_S)
                    continue
                if not await answers(tab, patience):
                    fault = await driverstate.at_fault(self.host)
                    if fault is not None:  # nothing answers: the page is not to blame, its tab stays
                        raise fault
                    why = f"it did not answer for {patience:g} s (a script that never yields?)"
                    await self.reopen(session, tab, why)
                    raise TabStuck(
                        f"the page stopped answering: {why}; the tab was reopened at about:blank",
                        "run the command again; avoid that page or its script",
                    )
                done, _ = await asyncio.wait({task}, timeout=PROBE_AFTER_S)
        finally:
            if not task.done():
                task.cancel()
                with suppress(asyncio.CancelledError, PlaywrightError):
                    await task
        if stopped and reads_only(command) and not task.cancelled() and task.exception() is not None:
            return await run()
        return task.result()

    async def leave(self, session: Session, tab: Tab) -> Tab:
        """The tab a navigation away should use: `tab`, or a fresh one in its place when the
        page (or one of its frames) does not answer, with a note saying so. A pristine tab
        (opened blank, nothing run on it) has nothing to leave."""
        if tab.pristine or await answers_everywhere(tab, LEAVE_PROBE_S):
            return tab
        url = tab.page.url
        fresh = await self.reopen(session, tab, "it was not answering")
        if fresh is None:
            return tab
        self.notes.setdefault(session.name, []).append(
            f"the page being left was not answering ({url}): closed; the new one opened in a fresh tab"
        )
        return fresh

    async def crash_hung_frames(self, session: Session, tab: Tab) -> bool:
        """Stop the renderer of each cross-site frame that does not answer while its page does,
        and empty the frame: a read or an action waits on every frame, and a busy one would hold
        it to its timeout. A same-site frame shares the page's renderer: a busy one makes the
        page itself not answer, which the guard handles."""
        frames = tab.page.frames[1:FRAMES_PROBED]
        answered = await asyncio.gather(*(frame_answers(frame, FRAME_PROBE_S) for frame in frames))
        hung = [frame for frame, ok in zip(frames, answered, strict=True) if not ok]
        browser = self.host.browser
        if not hung or browser is None or self.host.target.remote or not await answers(tab, LEAVE_PROBE_S):
            return False
        holders, urls = [await _holder(frame) for frame in hung], [frame.url for frame in hung]
        browser_pid = await self.host.browser_pid()
        busy = await renderers.busy_renderers(browser)
        if len(busy) > len({urlsplit(frame.url).netloc for frame in hung}):
            return False  # something else spins too (another tab's long script): which is which is unknown
        stopped = [pid for pid in busy if renderers.ours(pid, browser_pid) and await _paused(tab, pid)]
        if not stopped:
            return False
        # Killed with a frame in it, a renderer's crash is at times taken by Playwright for the whole
        # page's, which it then never reads again. So its frames are emptied while it is paused (they
        # move to their page's renderer), and it is killed once the browser has let go of them.
        targets = await renderers.frame_targets(browser, urls)
        for holder in holders:
            if holder is not None:
                with suppress(PlaywrightError, TimeoutError):
                    await asyncio.wait_for(_empty(holder), CLOSE_TIMEOUT_S)
        if not await renderers.until_gone(browser, targets, CLOSE_TIMEOUT_S):
            log.info(
                "tab %d: a stopped frame is still a target of its own: its renderer is killed anyway", tab.id
            )
        tab.memory.of(GuardWatch).frame_stopped = time.monotonic()  # a crash said soon after is this one
        for pid in stopped:
            renderers.signal_to(pid, signal.SIGKILL)
        log.warning("tab %d: frames not answering (%s): renderers %s stopped", tab.id, urls, stopped)
        self.notes.setdefault(session.name, []).append(
            f"a frame was not answering ({urls[0]}): its renderer was stopped and the frame emptied"
        )
        return True

    def take_notes(self, session_name: str) -> list[str]:
        """What happened to the session's tabs since its last command (printed on stderr)."""
        return self.notes.pop(session_name, [])

    # replacing a tab

    async def reopen(self, session: Session, tab: Tab, why: str) -> Tab | None:
        """Put a fresh about:blank tab where `tab` was, then close `tab` without its unload handlers."""
        watch = tab.memory.of(GuardWatch)
        if watch.replacing or tab not in session.tabs:
            return None
        watch.replacing = True
        self.recoveries += 1
        log.warning("tab %d of session %s was stuck (%s): reopened at about:blank", tab.id, session.name, why)
        try:
            return await self._swap(session, tab)
        finally:
            watch.replacing = False

    async def _swap(self, session: Session, tab: Tab) -> Tab:
        index, current = session.tabs.index(tab), session.current
        opening = asyncio.ensure_future(session.new_tab())
        done, _ = await asyncio.wait({opening}, timeout=NEW_TAB_WAIT_S)
        if not done:  # a page stuck while leaving (in `beforeunload`) holds new tabs back until it goes
            await _close(tab)
        fresh = await opening
        session.tabs.remove(fresh)
        session.tabs.insert(index, fresh)
        session.forget(tab)
        session.current = fresh if current is tab or current is None else current
        spawn(_close(tab))  # a hung renderer may take a moment to go: nothing waits on it
        return fresh

    def _recover_later(self, session: Session, tab: Tab, why: str) -> None:
        number = session.number(tab) if tab in session.tabs else 0
        self.notes.setdefault(session.name, []).append(
            f"tab {number} was reopened at about:blank: {why} (from {tab.page.url})"
        )
        spawn(self._quiet_reopen(session, tab, why))

    async def _quiet_reopen(self, session: Session, tab: Tab, why: str) -> None:
        try:
            await self.reopen(session, tab, why)
        except PlaywrightError as exc:
            log.info("could not reopen a stuck tab: %s", exc)

    # storms

    def on_new_tab(self, session: Session, tab: Tab) -> None:
        """Tab hook: the dialog and crash watch of a new tab, and the session's popup count."""
        page = tab.page
        tab.memory.of(GuardWatch).born = time.monotonic()
        storm = f"more than {DIALOG_LIMIT} dialogs in {STORM_WINDOW_S:g} s"
        dialogs = RateBreaker(
            lambda: self._recover_later(session, tab, storm),
            _nothing,
            limit=DIALOG_LIMIT,
            window_s=STORM_WINDOW_S,
        )
        page.on("dialog", lambda _: _count(dialogs))
        page.on("crash", lambda _: self._on_crash(session, tab))
        spawn(self._count_popup(session, tab))

    def _on_crash(self, session: Session, tab: Tab) -> None:
        # Once Playwright says a page crashed it never reads it again. It says so when the page's
        # renderer died, and at times when a frame's did: a hung frame's renderer is only killed
        # once the frame has left it, but the browser may not have let go of the frame in time.
        lately = time.monotonic() - tab.memory.of(GuardWatch).frame_stopped < FRAME_STOP_GRACE_S
        why = (
            "Playwright took a hung frame's stopped renderer for the page's"
            if lately
            else "its renderer crashed"
        )
        self._recover_later(session, tab, why)

    async def _count_popup(self, session: Session, tab: Tab) -> None:
        # Every new tab counts, `newtab` ones too: an agent does not open 20 tabs in 2 s, and
        # asking Playwright for the opener is no help once a stuck opener has been closed.
        popups = self._popups.get(session.name)
        if popups is None:
            popups = self._popups[session.name] = RateBreaker(
                lambda: self._close_storm(session),
                _nothing,
                limit=POPUP_LIMIT,
                window_s=POPUP_WINDOW_S,
                cooldown_s=POPUP_COOLDOWN_S,
            )
        if not popups.allow():
            await _close(tab)

    def _close_storm(self, session: Session) -> None:
        since = time.monotonic() - 2 * POPUP_WINDOW_S
        storm = [t for t in session.tabs if t.memory.of(GuardWatch).born > since and t is not session.current]
        log.warning("popup storm in session %s: closing %d new tabs", session.name, len(storm))
        burst = f"more than {POPUP_LIMIT} in {POPUP_WINDOW_S:g} s"
        self.notes.setdefault(session.name, []).append(
            f"closed {len(storm)} tabs a page opened in a burst ({burst})"
        )
        for tab in storm:
            spawn(_close(tab))


def reads_only(command: str) -> bool:
    """A command that only looks at the page: its own time bound ends it, never a reset."""
    spec = COMMANDS.get(command)
    return spec is not None and spec["cat"] == "read" and not spec.get("runs_page_code")


def _nothing() -> None:
    pass


def _count(breaker: RateBreaker) -> None:
    breaker.allow()


async def answers(tab: Tab, patience_s: float | None = None) -> bool:
    """True when the page runs a trivial script within `patience_s` (default: `probe_timeout_s()`)."""
    try:
        await asyncio.wait_for(
            tab.page.evaluate("1"), probe_timeout_s() if patience_s is None else patience_s
        )
    except TimeoutError:
        return False
    except PlaywrightError:
        return True  # navigating or closed: not stuck, and the command says what happened
    return True


async def answers_everywhere(tab: Tab, patience_s: float) -> bool:
    """True when the page and each of its frames (up to a few) run a trivial script within `patience_s`."""
    frames = tab.page.frames[:FRAMES_PROBED]
    return all(await asyncio.gather(*(frame_answers(frame, patience_s) for frame in frames)))


async def frame_answers(frame: Frame, patience_s: float) -> bool:
    """True when `frame` runs a trivial script within `patience_s`."""
    try:
        await asyncio.wait_for(frame.evaluate("1"), patience_s)
    except TimeoutError:
        return False
    except PlaywrightError:
        return True  # navigating, detached or closed: not stuck
    return True


async def _paused(tab: Tab, pid: int) -> bool:
    """Pause the spinning renderer `pid` unless it holds `tab`'s page: paused, the page must
    still answer. True if it stays paused."""
    if not renderers.signal_to(pid, signal.SIGSTOP):
        return False
    if not await answers(tab, LEAVE_PROBE_S):
        renderers.signal_to(pid, signal.SIGCONT)  # the page's own renderer: left to the guard
        return False
    return True


async def _empty(holder: ElementHandle) -> None:
    """Load about:blank in the `<iframe>` `holder`, and wait until its new document answers."""
    await holder.evaluate("e => { e.src = 'about:blank' }")
    while True:
        inside = await holder.content_frame()
        if inside is not None and inside.url == "about:blank" and await frame_answers(inside, 0.5):
            return
        await asyncio.sleep(0.05)


async def _holder(frame: Frame) -> ElementHandle | None:
    """The `<iframe>` element of `frame`, asked of its parent (which answers); None if gone."""
    try:
        return await asyncio.wait_for(frame.frame_element(), CLOSE_TIMEOUT_S)
    except (PlaywrightError, TimeoutError):
        return None


async def _close(tab: Tab) -> None:
    with suppress(PlaywrightError, TimeoutError):
        await asyncio.wait_for(tab.page.close(run_before_unload=False), CLOSE_TIMEOUT_S)
