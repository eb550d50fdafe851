"""Settling: an action answers once the page has reacted to it, within a bound.

The navigation an action caused commits and loads; then the DOM has been quiet
(for `AFTER_CHANGE_MS` after its last change, or `IDLE_MS` from the action's
last input when nothing changed at all, so that a handler's timer of up to
`IDLE_MS` is inside the wait), no finite CSS transition or animation is
running (a menu or dialog on its way out), and every fetch, XHR or script the
action started has ended and every WebSocket it opened has answered (see
`SocketWatch`), or the settle budget (`--settle MS`, default
`DEFAULT_SETTLE_MS`) runs out. The first wait after an action on the same
document can end sooner: the probe counts the short timers, animation frames
and in-page messages the action's handlers scheduled, and once they have all
run and a frame has passed, there is nothing left that the window would catch
(see `pagework`). A navigation is noticed from the browser's own
events, so an action that starts none pays no fixed delay for the check.
A fetch the page starts before a look answers reaches us before that answer
(one DevTools connection, in order), and one that ends while the page is
looked at has its answer looked for again; a navigation goes through the browser and
can be announced later, so the probe also notices the document asking to
navigate (the Navigation API's `navigate` event) and the wait ends there to
follow it, and `effects` settles again when one started meanwhile. Work that
can share the wait (reading the page) starts as it begins. `--no-wait`
answers at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from typing import TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page, Request, WebSocket
from playwright.async_api import TimeoutError as PlaywrightTimeout

from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import ANSWER_MS, Also, PageBusy, PageReport, Probe, Shown, answered
from refbrowse.errors import UsageError

T = TypeVar("T")
DEFAULT_SETTLE_MS = 1_500
QUIET_MS = 100  # `wait` without a condition: the DOM quiet this long
AFTER_CHANGE_MS = 60  # after an action: quiet this long since the last change (or a new document's look)
IDLE_MS = 50  # nothing changed yet since the action began (or the new document's first look): this long
_MAX_SETTLE_MS = 60_000
# A navigation the page asked for reaches the network within milliseconds (after its beforeunload
# handlers); one still not requested after this long was dropped or turned into something else.
REQUESTED_MS = 500
# what a page loads in reaction to an action before it shows the result (lazy routes load scripts)
_AWAITED_TYPES = ("fetch", "xhr", "script")
# A socket's reply to the page is awaited this long after the page spoke, and a reply in parts this
# long after each part for the next (see `SocketWatch`).
SOCKET_ANSWER_MS = 1_000
SOCKET_PART_MS = 250


@dataclass(frozen=True, slots=True)
class SettleOptions:
    wait: bool = True
    budget_ms: int = DEFAULT_SETTLE_MS


def settle_options(flags: dict[str, str | bool]) -> SettleOptions:
    """`--no-wait` and `--settle MS` of an action."""
    if flags.get("--no-wait"):
        return SettleOptions(wait=False, budget_ms=0)
    raw = flags.get("--settle")
    if raw is None or raw is False:
        return SettleOptions()
    text = str(raw)
    if not text.isdigit() or int(text) > _MAX_SETTLE_MS:
        raise UsageError(
            f"--settle takes milliseconds from 0 to {_MAX_SETTLE_MS}, got {text!r}",
            "for example: --settle 3000 (or --no-wait to answer at once)",
        )
    return SettleOptions(wait=True, budget_ms=int(text))


class ActionWatch:
    """What the page's main frame and network do while an action runs and settles."""

    def __init__(self, page: Page, sockets: Iterable[WebSocket] = ()) -> None:
        self.page = page
        self._open_sockets = tuple(sockets)  # opened before the action: awaited once the page speaks
        self.navigation: Request | None = None  # the main frame's latest navigation request
        self.committed = False  # the main frame committed a navigation (pushState included)
        self.ended = asyncio.Event()  # that navigation committed, or ended without a page (a download)
        self.started = asyncio.Event()  # a navigation request of the main frame went out
        self.pending: set[Request | WebSocket] = set()  # awaited requests, and sockets awaiting an answer
        self.drained = asyncio.Event()
        self.drained.set()
        self.busy = False  # the page stopped answering while the action settled
        self.answered_at = 0.0  # when the last awaited request or socket answered (time.monotonic())
        self._sockets: list[SocketWatch] = []
        # The look after the action, taken as the last wait for quiet ended (see `settle`): asked
        # for when `looks`, with what the element held under `held` holds (kept held).
        self.looks = False
        self.held: str | None = None
        self.look: PageReport | None = None

    def __enter__(self) -> ActionWatch:
        self.page.on("request", self._request)
        self.page.on("requestfinished", self._finished)
        self.page.on("requestfailed", self._failed)
        self.page.on("framenavigated", self._navigated)
        self.page.on("websocket", self._socket)
        for socket in self._open_sockets:
            self._sockets.append(SocketWatch(socket, self._awaiting, self._done, opened=False))
        return self

    def __exit__(self, *_: object) -> None:
        self.page.remove_listener("request", self._request)
        self.page.remove_listener("requestfinished", self._finished)
        self.page.remove_listener("requestfailed", self._failed)
        self.page.remove_listener("framenavigated", self._navigated)
        self.page.remove_listener("websocket", self._socket)
        for socket in self._sockets:
            socket.close()

    @property
    def navigating(self) -> bool:
        return self.navigation is not None and not self.ended.is_set()

    def _request(self, request: Request) -> None:
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self.navigation = request
            self.ended.clear()
            self.started.set()
        elif request.resource_type in _AWAITED_TYPES:
            self.pending.add(request)
            self.drained.clear()

    @property
    def spoke_at(self) -> float:
        """When the page last sent a message on a socket during the action (time.monotonic()), or -inf."""
        return max((watch.asked_at for watch in self._sockets), default=float("-inf"))

    def _socket(self, socket: WebSocket) -> None:
        trace.note(f"settle: socket opened {socket.url}")
        self._sockets.append(SocketWatch(socket, self._awaiting, self._done))

    def _awaiting(self, socket: WebSocket) -> None:
        self.pending.add(socket)
        self.drained.clear()

    def _navigated(self, frame: Frame) -> None:
        if frame == self.page.main_frame:
            self.committed = True
            self.ended.set()

    def _finished(self, request: Request) -> None:
        self._done(request)

    def _failed(self, request: Request) -> None:
        if request is self.navigation:
            self.ended.set()
        self._done(request)

    def _done(self, awaited: Request | WebSocket, at: float | None = None) -> None:
        """An awaited request ended, or a socket's reply did (`at`: its last message, which the page
        may still be drawing)."""
        if awaited in self.pending:
            self.pending.discard(awaited)
            self.answered_at = max(self.answered_at, time.monotonic() if at is None else at)
        if not self.pending:
            self.drained.set()


class SocketWatch:
    """A WebSocket of the page, awaited while it answers what the page asked.

    A page drawn over a socket (Panel and Bokeh, Streamlit, LiveView…) shows
    nothing until the server has answered: a socket is awaited from its
    opening, and from each message the page sends, until its reply, like a
    fetch. A reply may come in parts (Streamlit sends a page as a run of
    deltas while its script runs), so after each part the socket is awaited
    `SOCKET_PART_MS` more for the next one. All of it within `SOCKET_ANSWER_MS`
    of the page's message: a socket may stay silent, the page's message may
    want no answer, and a feed that never pauses must not hold every action.
    """

    def __init__(
        self,
        socket: WebSocket,
        awaiting: Callable[[WebSocket], None],
        answered: Callable[[WebSocket, float], None],
        *,
        opened: bool = True,
    ) -> None:
        self.socket = socket
        self._awaiting = awaiting
        self._answered = answered
        self._timer: asyncio.TimerHandle | None = None
        self.asked_at = float("-inf")  # when the page last spoke (time.monotonic())
        self._heard_at = 0.0
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)
        for event in ("close", "socketerror"):
            socket.on(event, self._ended)
        if opened:
            self._sent()

    def _sent(self, *_: object) -> None:
        self.asked_at = time.monotonic()
        self._await(SOCKET_ANSWER_MS)

    def _received(self, *_: object) -> None:
        self._heard_at = time.monotonic()
        left_ms = SOCKET_ANSWER_MS - (self._heard_at - self.asked_at) * 1000
        if left_ms > 0:
            self._await(min(SOCKET_PART_MS, left_ms))
        else:
            self._ended()

    def _await(self, ms: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(ms / 1000, self._ended)
        self._awaiting(self.socket)

    def _ended(self, *_: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._answered(self.socket, self._heard_at)

    def close(self) -> None:
        """Stop watching (the action has been reported)."""
        if self._timer is not None:
            self._timer.cancel()
        self.socket.remove_listener("framesent", self._sent)
        self.socket.remove_listener("framereceived", self._received)
        for event in ("close", "socketerror"):
            self.socket.remove_listener(event, self._ended)


async def follow_navigation(watch: ActionWatch, doing: str, nav_timeout_ms: int) -> None:
    """Wait for a navigation the action started to commit and its document to be parsed."""
    try:
        if watch.navigating:
            await asyncio.wait_for(watch.ended.wait(), nav_timeout_ms / 1000)
        if watch.committed:
            await watch.page.wait_for_load_state("domcontentloaded", timeout=nav_timeout_ms)
    except PlaywrightError as exc:
        raise translate(exc, doing) from exc
    except TimeoutError as exc:
        raise translate(PlaywrightTimeout(f"the page did not load after {doing}"), doing) from exc


async def settle(
    tab: Tab,
    watch: ActionWatch,
    doing: str,
    budget_ms: int,
    nav_timeout_ms: int,
    looking: Callable[[], None] = lambda: None,
    shown: bool = False,
) -> Shown | None:
    """Navigation, then load, then DOM quiet and the action's requests done, within `budget_ms`.

    `looking` is called as each wait for quiet begins: work that can share the wait starts then.
    With `shown`, the page's state as the last wait for quiet ended, when settling ended there.
    When `watch.looks`, the page's look as settling ended is `watch.look` (None if it did not end
    on a wait for quiet).
    """
    deadline = time.monotonic() + budget_ms / 1000
    watch.look = None
    also = Also(shown=shown, report=watch.looks, held=watch.held, keep=True)
    loaded = False
    floor = 0  # the first look counts from the action's start; later ones follow a request's end
    while not tab.page.is_closed():
        await follow_navigation(watch, doing, nav_timeout_ms)
        if watch.committed and not loaded:
            loaded = await trace.timed("settle: load", _loaded(tab.page, deadline))
        left = _left_ms(deadline)
        if left <= 0 or (watch.committed and tab.page.url == "about:blank" and watch.drained.is_set()):
            return None  # out of budget; or the empty document a navigation to about:blank gives at once
        looked_at = time.monotonic()
        try:
            # about:blank never shows anything: waiting for content there only runs out the budget
            need_content = watch.committed and tab.page.url != "about:blank"
            quiet = Probe(tab).quiet(AFTER_CHANGE_MS, left, floor, need_content, IDLE_MS, also)
            found = None
            with suppress(PlaywrightError):  # a navigation replaced the document: loop and follow it
                waiting = unless_navigation(
                    watch, answered(trace.timed("settle: quiet", quiet), left + ANSWER_MS)
                )
                looking()
                found = await waiting
            if found is not None and found.empty:
                trace.note("settle: an empty document that nothing will fill")
            if found is not None and found.leaving and not watch.navigating:
                await _requested(watch, deadline)
            if watch.navigating:
                continue  # the action's navigation went out while we looked: follow it
        except PageBusy:
            watch.busy = True
            return None
        floor = AFTER_CHANGE_MS
        if watch.navigating:
            continue
        # An answer that came while the page was looked at may not be on the page yet: look again.
        if (watch.drained.is_set() and watch.answered_at < looked_at) or _left_ms(deadline) <= 0:
            # the look as the wait ended is the look after, unless a navigation asked for was awaited since
            watch.look = found.report if found is not None and not found.leaving else None
            return found.shown if found is not None else None
        with suppress(TimeoutError):
            await asyncio.wait_for(watch.drained.wait(), _left_ms(deadline) / 1000)
    return None


async def _requested(watch: ActionWatch, deadline: float) -> None:
    """The page asked to navigate: wait, within the budget, for the browser's request to arrive."""
    limit_ms = min(_left_ms(deadline), REQUESTED_MS)
    with suppress(TimeoutError):
        await asyncio.wait_for(watch.started.wait(), max(limit_ms, 0) / 1000)


async def unless_navigation(watch: ActionWatch, look: Awaitable[T]) -> T | None:
    """`look`'s value, or None when a navigation of the main frame starts first.

    A page with a navigation in flight runs no script until it commits, and
    the request event of a navigation a click started can arrive just after
    the click returns: a look that waited on such a page would call it busy.
    """
    watch.started.clear()
    looking = asyncio.ensure_future(look)
    started = asyncio.ensure_future(watch.started.wait())
    try:
        await asyncio.wait({looking, started}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        started.cancel()
    if looking.done():
        return looking.result()
    looking.cancel()
    with suppress(asyncio.CancelledError, PageBusy, PlaywrightError):
        await looking
    return None


async def _loaded(page: Page, deadline: float) -> bool:
    """The load event, as far as the budget allows (a slow image must not hold the answer)."""
    with suppress(PlaywrightError):
        await page.wait_for_load_state("load", timeout=max(_left_ms(deadline), 1))
    return True


def _left_ms(deadline: float) -> int:
    return int((deadline - time.monotonic()) * 1000)
