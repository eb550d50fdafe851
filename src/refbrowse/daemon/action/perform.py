"""What an action did: the lines after an action's first line.

`perform` runs an action between two looks at the page: it settles (see
`settle`), then reports where the page went, tabs that opened or closed,
dialogs and what was done with them, downloads, messages that appeared
(alerts, status and live regions, toasts, validation messages, dialogs that
opened or closed) and a small diff of the interactive view. Whatever quotes
the page is fenced as untrusted content; the rest is refbrowse's own words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TypeGuard

from playwright.async_api import Dialog, Download, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action import answering, arrival_view, passage
from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.report import (
    Outcome,
    download_line,
    in_diff,
    message_lines,
    navigation_line,
    quote,
)
from refbrowse.daemon.action.settle import (
    ActionWatch,
    SettleOptions,
    follow_navigation,
    settle,
    settle_options,
    unless_navigation,
)
from refbrowse.daemon.action.viewdiff import Asked, before_view, keep_view, take_view_of, view_change
from refbrowse.daemon.core import trace
from refbrowse.daemon.core.logbuffer import DialogEntry, RingBuffer
from refbrowse.daemon.core.pwerrors import translate
from refbrowse.daemon.core.session import Session
from refbrowse.daemon.core.tab import Tab
from refbrowse.daemon.page.pageprobe import ANSWER_MS, PageBusy, PageReport, answered, observe
from refbrowse.daemon.page.popups import PopupCounter, arrived
from refbrowse.daemon.page.snapshot import huge_page, prepared
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.settling_read import EarlyReading
from refbrowse.daemon.page.tabguard import PROBE_TIMEOUT_S, TabStuck, answers
from refbrowse.errors import BrowseError, Unavailable

_POPUP_COMMIT_MS = 1_000  # how long a report waits for a new tab to know its URL
# Messages a whole view of a new page gives a line of their own: not said again on arrival. A server's
# message list ("message") is said: it is news, and the view shows it as plain text.
_IN_VIEW = frozenset(("alert", "status", "live region", "output", "invalid", "dialog"))
_POPUP_ARRIVAL_MS = 3_000  # how long for Playwright to announce a popup Chromium has created


class TabWatch:
    """Tabs that open, the acting tab closing, dialogs and downloads, while an action runs."""

    def __init__(
        self, session: Session, page: Page, counter: PopupCounter | None, dialog_log: RingBuffer[DialogEntry]
    ) -> None:
        self.session = session
        self.page = page
        self.counter = counter
        self.counted = counter.created if counter else 0
        self.opened: list[Page] = []
        self.popups: list[Page] = []  # the opened pages that the acting tab opened
        self.downloads: list[Download] = []
        self.dialogs: list[tuple[str, str]] = []  # (type, message) in the acting tab
        self._log = dialog_log
        self._logged = dialog_log.total

    def __enter__(self) -> TabWatch:
        self.session.context.on("page", self._opened)
        self.page.on("download", self._download)
        self.page.on("dialog", self._dialog)
        self.page.on("popup", self._popup)
        return self

    def __exit__(self, *_: object) -> None:
        self.session.context.remove_listener("page", self._opened)
        self.page.remove_listener("download", self._download)
        self.page.remove_listener("dialog", self._dialog)
        self.page.remove_listener("popup", self._popup)

    def _opened(self, page: Page) -> None:
        self.opened.append(page)

    def _popup(self, page: Page) -> None:
        self.popups.append(page)

    def _download(self, download: Download) -> None:
        self.downloads.append(download)

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append((dialog.type, dialog.message))

    def answers(self) -> dict[str, str]:
        """message → what was done with it, from the dialog log of this session."""
        entries = self._log.since(self._logged)
        return {e.message: e.action for e in entries if e.session == self.session.name}


Action = Callable[[], Awaitable[object]]


class StoppedAnswering:
    """A tab whose page stopped answering (in its `TabMemory`): no more looks until it is checked,
    so that the tab guard's own check sees the page as it is and can replace it."""

    def __init__(self) -> None:
        self.busy = False


async def perform(
    call: ActingCall,
    doing: str,
    action: Action,
    *,
    navigation: bool = False,
    tab: Tab | None = None,
    asked: Asked | None = None,
    begun: PageReport | None = None,
) -> Outcome:
    """Run `action` on the call's tab, settle, and say what it did.

    `navigation` marks actions whose purpose is to navigate (goto, back…):
    their first line already says where the page went, and the page they
    leave is not diffed against the one they reach. `tab` defaults to the
    call's current tab. `asked` is the change the action asks of its own
    element: the diff leaves it out when it happened just so. `begun` is the
    look before when the action's own first call took it (`direct_input`).
    """
    options = settle_options(call.flags)
    tab = tab or call.tab
    if tab.memory.of(StoppedAnswering).busy:
        await _recover_if_stuck(call, tab)
    page = tab.page
    before, baseline = await _looks_before(tab, navigation, begun)
    # a page whose script did not answer the look before is not asked again: the look would wait too
    showing = None if navigation or not options.wait or before is None else await answering.look(page)
    counter = await trace.timed("popup counter", call.services.popups.of(call.session.context.browser))
    settings = call.services.settings  # a new tab gets the session's settings before it loads anything
    await settings.ready(page)
    marks = settings.marks(call.session)  # so the report can name the requests routes answered
    early = EarlyReading(tab)
    with (
        ActionWatch(page, tab.sockets) as watch,
        TabWatch(call.session, page, counter, call.services.capture.dialogs) as tabs,
    ):
        capped = ""
        try:
            await trace.timed("action", action())
            settling = _settle(tab, watch, doing, options, (call.nav_timeout_ms, early, showing))
            capped = await trace.timed("settle", settling)
        except PlaywrightError as exc:
            if not page.is_closed():
                raise translate(exc, doing) from exc
        except Unavailable:
            if not page.is_closed():
                raise  # the browser, not the tab, went away
        if watch.busy:
            tab.memory.of(StoppedAnswering).busy = True
        outcome = Outcome(page.url, call.raw, call.json)
        outcome.trailer += [capped] if capped else []
        acted = _Acted(call, tab, watch, tabs, early, before, baseline, navigation, asked)
        try:
            await trace.timed("describe", _describe(acted, outcome))
        except (PlaywrightError, BrowseError):
            if not page.is_closed():
                raise
            _closed_itself(call.session, outcome)  # it closed while the report looked at it
        finally:
            early.finish_later()
    outcome.notes += settings.report(call.session, marks, outcome.url)
    return outcome


@dataclass(frozen=True, slots=True)
class _Acted:
    """What `perform` knows once the action has settled: what the report is made from."""

    call: ActingCall
    tab: Tab
    watch: ActionWatch
    tabs: TabWatch
    early: EarlyReading
    before: PageReport | None  # the page before the action (None if it could not say)
    baseline: str | None  # the interactive view before, when the action's change is to be diffed
    navigation: bool
    asked: Asked | None


def _viewable(report: PageReport | None) -> TypeGuard[PageReport]:
    """Whether the interactive view can be diffed: a huge page's full view takes longer than the action."""
    return report is not None and report.elements <= huge_page.HUGE_ELEMENTS


async def _recover_if_stuck(call: ActingCall, tab: Tab) -> None:
    """A tab our last look found busy: ask the tab guard to replace it if it still does not answer.

    Checked before the action, while no navigation is pending: a page that is
    both busy and navigating can look like it is merely navigating.
    """
    tab.memory.of(StoppedAnswering).busy = False
    if await answers(tab):
        return
    why = f"it did not answer for {PROBE_TIMEOUT_S:g} s (a script that never yields?)"
    await call.services.tab_guard.reopen(call.session, tab, why)
    raise TabStuck(
        f"the page stopped answering: {why}; the tab was reopened at about:blank",
        "run the command again; avoid that page or its script",
    )


async def _looks_before(
    tab: Tab, navigation: bool, begun: PageReport | None
) -> tuple[PageReport | None, str | None]:
    """What the page reports before the action (`begun` when the action's own first call took it),
    and its view when the action's change is to be diffed."""
    try:
        before = begun
        if before is None:
            seen = await answered(trace.timed("look before", observe(tab, begin=True)))
            before = seen[1] if seen else None
        if navigation or before is None or not _viewable(before):
            return before, None
        return before, await answered(trace.timed("view before", before_view(tab, before)))
    except PageBusy:
        return None, None  # the action itself will meet the busy page and say so


async def _settle(
    tab: Tab,
    watch: ActionWatch,
    doing: str,
    options: SettleOptions,
    more: tuple[int, EarlyReading, answering.PageState | None],
) -> str:
    """Settle, then on until the page has answered; our note when that hit its cap."""
    nav_ms, early, showing = more
    if not options.wait:
        if watch.committed and not watch.navigating:  # --no-wait: a navigation under way is only said
            await follow_navigation(watch, doing, nav_ms)
        return ""
    await settle(tab, watch, doing, options.budget_ms, nav_ms, early.start)
    if watch.navigating:  # the browser announced the action's navigation after the page went quiet
        await settle(tab, watch, doing, options.budget_ms, nav_ms, early.start)
    capped = await trace.timed("answer", _answered(tab, watch, options, showing))
    if watch.navigating:  # the page navigated while it was being answered for
        await settle(tab, watch, doing, options.budget_ms, nav_ms, early.start)
    return capped


async def _answered(
    tab: Tab, watch: ActionWatch, options: SettleOptions, showing: answering.PageState | None
) -> str:
    """Settle on while the page is an empty shell still growing, or shows a loading indicator the
    action brought up; our note when the cap was hit."""
    if options.budget_ms == 0 or tab.page.is_closed() or watch.busy:
        return ""
    return await answering.until_answered(tab.page, showing)


async def _describe(acted: _Acted, out: Outcome) -> None:
    tab, watch, before, navigation = acted.tab, acted.watch, acted.before, acted.navigation
    await trace.timed("tab lines", _tab_lines(acted.call.session, tab, acted.tabs, out))
    if tab.page.is_closed():
        return
    if watch.busy:
        _busy(out, watch, before, navigation)
        return
    viewing = acted.baseline is not None and not watch.navigating
    try:
        looked = await _look_after(tab, watch, acted.early, viewing)
    except PageBusy:
        _busy(out, watch, before, navigation)
        return
    if looked is None:  # --no-wait, and a navigation is in flight: the page answers once it commits
        if not navigation:
            navigation_line(out, watch, before, None, True)
        return
    after, view, taken = looked
    new_document = before is None or after is None or after.document != before.document
    if not navigation:
        navigation_line(out, watch, before, after, new_document)
    arrived = await _arrival(acted, out, after)
    if not arrived.view:
        _prepare_unless_read(tab, after, acted.early, viewing)
    _dialogs_and_downloads(out, acted.tabs)
    _page_lines(out, before, after, new_document, arrived)
    if acted.navigation or "navigation" in out.fields:
        await passage.into_report(tab.page, out)
    if acted.baseline is not None and after is not None and not new_document:
        _view_change(acted, out, after, (acted.baseline, view), taken)


def _view_change(
    acted: _Acted, out: Outcome, after: PageReport, views: tuple[str, str | None], taken: PageSnapshot | None
) -> None:
    """The diff of the interactive view on the same document, ordered by need; or, when most of
    the view is new (a single-page app's route, a panel replaced), the new view as an arrival's."""
    baseline, view = views
    keep_view(acted.tab, after, view)
    change = view_change(baseline, view, acted.asked)
    if change.most and taken is not None:
        found = arrival_view.shown(acted.tab, taken, acted.call.raw)
        out.quoted.append(found.view)
        out.fields["page"] = found.data
        return
    quoted = change.quoted
    out.quoted = [line for line in out.quoted if not in_diff(line, quoted)]
    out.quoted += quoted
    out.trailer += change.trailer
    out.add("view", *quoted[1:])
    out.add("notes", *change.trailer)


def _page_lines(
    out: Outcome,
    before: PageReport | None,
    after: PageReport | None,
    new_document: bool,
    arrived: arrival_view.Arrival,
) -> None:
    """Messages that appeared, then the view of the page the action arrived at."""
    if after is not None:
        old = before.messages if before and not new_document else ()
        # A server's message after a post ("The user was added") is news even when a whole view shows it.
        whole = arrived.whole and not old
        message_lines(out, old, after.messages, unprinted=_IN_VIEW if whole else frozenset())
    out.quoted += [arrived.view] if arrived.view else []
    out.trailer += [arrived.note] if arrived.note else []


async def _arrival(acted: _Acted, out: Outcome, after: PageReport | None) -> arrival_view.Arrival:
    """The view of the page the action arrived at: after a navigation to a new document, else nothing."""
    moved = acted.navigation or out.fields.get("navigation", {}).get("kind") in ("navigated", "same URL")
    if after is None or not moved:
        return arrival_view.Arrival()
    reading = await acted.early.matching(after.stamp)  # read while the action settled, if still the page
    call, tab = acted.call, acted.tab
    found = await arrival_view.look(
        tab, after.elements, huge_page.HUGE_ELEMENTS, call.nav_timeout_ms, call.raw, reading
    )
    if found.data is not None:
        out.fields["page"] = found.data
    if found.whole and not call.raw:  # the view the next action diffs against: no need to read it again
        keep_view(tab, after, found.view.rsplit("\n", 1)[0])
    return found


async def _look_after(
    tab: Tab, watch: ActionWatch, early: EarlyReading, viewing: bool
) -> tuple[PageReport | None, str | None, PageSnapshot | None] | None:
    """What the page reports now (None if it cannot say), and its view and the snapshot it came from
    if asked; None while a navigation is in flight."""
    if watch.navigating:
        return None
    looked = await unless_navigation(watch, answered(trace.timed("look after", _report(tab))))
    if looked is None:
        return None
    after = looked[0]
    viewed = viewing and after is not None
    if not viewed:
        return after, None, None
    view, taken = await answered(trace.timed("view after", _view_after(tab, after, early)))
    return after, view, taken


async def _report(tab: Tab) -> tuple[PageReport | None]:
    seen = await observe(tab, stamp=True)
    return (seen[1] if seen else None,)


async def _view_after(
    tab: Tab, after: PageReport | None, early: EarlyReading
) -> tuple[str | None, PageSnapshot | None]:
    """The interactive view now: from the reading taken while settling if the page has not changed since."""
    return await take_view_of(tab, await early.matching(after.stamp if after else None))


def _prepare_unless_read(tab: Tab, after: PageReport | None, early: EarlyReading, viewing: bool) -> None:
    """Read the page for the next `snapshot` in the background, unless a reading of it now is kept."""
    if after is not None and not viewing and not early.kept(after.stamp):
        prepared.prepare_soon(tab, after.elements)


def _dialogs_and_downloads(out: Outcome, tabs: TabWatch) -> None:
    answered_as = tabs.answers()
    for kind, message in tabs.dialogs:
        done = answered_as.get(message, "answered by the dialog policy (see `browse dialog`)")
        out.quoted.append(f"{kind} dialog {quote(message)}: {done}")
        out.add("dialogs", {"type": kind, "message": message, "answer": done})
    for download in tabs.downloads:
        out.quoted.append(download_line(download))
        out.add("downloads", {"filename": download.suggested_filename, "url": download.url})


def _busy(out: Outcome, watch: ActionWatch, before: PageReport | None, navigation: bool) -> None:
    if not navigation:
        navigation_line(out, watch, before, None, True)
    out.notes.append(f"the page is busy: its script has not answered for {ANSWER_MS} ms or more")
    out.fields["busy"] = True


async def _tab_lines(session: Session, tab: Tab, tabs: TabWatch, out: Outcome) -> None:
    await arrived(tabs.counter, tabs.counted, lambda: len(tabs.opened), _POPUP_ARRIVAL_MS)
    for opened in tabs.opened:
        with suppress(PlaywrightError):
            await opened.wait_for_load_state("domcontentloaded", timeout=_POPUP_COMMIT_MS)
        kind = "popup" if opened in tabs.popups else "tab"
        if opened.is_closed():
            out.notes.append(f"a {kind} opened and closed itself: {opened.url}")
            out.add("tabs", {"event": "opened and closed", "kind": kind, "url": opened.url})
            continue
        number = next((session.number(t) for t in session.tabs if t.page is opened), None)
        out.notes.append(f"opened tab {number} ({kind}): {opened.url}")
        out.add("tabs", {"event": "opened", "kind": kind, "tab": number, "url": opened.url})
    if tab.page.is_closed():
        _closed_itself(session, out)


def _closed_itself(session: Session, out: Outcome) -> None:
    """The acted tab closed itself (a popup that posted its form): say so once, and where the agent is now."""
    if any(record.get("event") == "this tab closed itself" for record in out.fields.get("tabs", ())):
        return
    current = session.current
    where = f"tab {session.number(current)}: {current.page.url}" if current else "none (no tabs left)"
    out.notes.append(f"this tab closed itself; now on {where}")
    now = session.number(current) if current else None
    out.add("tabs", {"event": "this tab closed itself", "current": now})
