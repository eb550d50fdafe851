"""What an action did: the lines after an action's first line.

`perform` runs an action between two looks at the page: it settles (see
`settle`), then reports where the page went, tabs that opened or closed,
dialogs and what was done with them, downloads, messages that appeared
(alerts, status and live regions, toasts, validation messages, dialogs that
opened or closed) and a small diff of the interactive view. Whatever quotes
the page is fenced as untrusted content; the rest is refbrowse's own words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TypeGuard

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.action import answering, arrival_view, handover, open_popups, passage
from refbrowse.daemon.action.acting import ActingCall, Begun
from refbrowse.daemon.action.report import Outcome, message_lines, navigation_line
from refbrowse.daemon.action.settle import (
    ActionWatch,
    SettleOptions,
    follow_navigation,
    settle,
    settle_options,
    unless_navigation,
)
from refbrowse.daemon.action.tab_watch import TabWatch, closed_itself, dialogs_and_downloads, tab_lines
from refbrowse.daemon.action.view_report import view_lines
from refbrowse.daemon.action.viewdiff import AskedOf
from refbrowse.daemon.action.views import before_view, keep_view, take_view_of
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import ANSWER_MS, Also, PageBusy, PageReport, Probe, answered, observe
from refbrowse.daemon.page.popups import PopupCounter
from refbrowse.daemon.page.snapshot import huge_page, prepared
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.settling_read import EarlyReading
from refbrowse.daemon.page.tabguard import PROBE_TIMEOUT_S, TabStuck, answers
from refbrowse.daemon.page.webmcp.mention import tools_line
from refbrowse.errors import BrowseError, Unavailable

# Messages a whole view of a new page gives a line of their own: not said again on arrival. A server's
# message list ("message") is said: it is news, and the view shows it as plain text.
_IN_VIEW = frozenset(("alert", "status", "live region", "output", "invalid", "dialog"))


Action = Callable[[], Awaitable[object]]


class StoppedAnswering:
    """A tab whose page stopped answering (in its `TabMemory`): no more looks until it is checked,
    so that the tab guard's own check sees the page as it is and can replace it."""

    def __init__(self) -> None:
        self.busy = False


async def perform(
    call: ActingCall,
    doing: str,
    action: Action | None = None,
    *,
    navigation: bool = False,
    tab: Tab | None = None,
    asked: AskedOf = None,
    direct: Begun | None = None,
) -> Outcome:
    """Run `action` on the call's tab, settle, and say what it did: the steps of an `ActionRun`.

    `navigation` marks actions whose purpose is to navigate (goto, back…):
    their first line already says where the page went, and the page they
    leave is not diffed against the one they reach. `tab` defaults to the
    call's current tab. `asked` is the change the action asks of its own
    element: the diff leaves it out when it happened just so. `direct` is an
    input begun in one page call (`direct_input`): its look before stands for
    ours, its input is the action unless one is given, and the look after reads
    what it holds (`Outcome.held`).
    """
    run = ActionRun(call, doing, tab or call.tab, navigation, asked, direct)
    await run.begin()
    with run.watching() as (watch, tabs):
        capped = await run.act(action or _direct_act(direct), watch)
        outcome = await run.look(watch, tabs, capped)
    return run.report(outcome)


def _direct_act(direct: Begun | None) -> Action:
    assert direct is not None, "perform needs an action, or an input begun directly"
    return direct.act


class ActionRun:
    """One action between two looks at the page, as named steps: begin, act (and settle), look, report."""

    def __init__(
        self, call: ActingCall, doing: str, tab: Tab, navigation: bool, asked: AskedOf, direct: Begun | None
    ) -> None:
        self.call, self.doing, self.tab, self.page = call, doing, tab, tab.page
        self.navigation, self.asked = navigation, asked
        self.begun = direct.before if direct else None
        self.held = direct.held if direct else None
        self.options = settle_options(call.flags)
        self.answering_for = not navigation and self.options.wait  # the page's state before is wanted
        self.early = EarlyReading(tab)
        self.before: PageReport | None = None
        self.baseline: str | None = None
        self.showing: answering.PageLook | None = None
        self.remembered = False
        self.counter: PopupCounter | None = None
        self.marks: dict[str, int] = {}

    async def begin(self) -> None:
        """The page before the action: checked if it stopped answering, looked at, its view and state kept."""
        call, tab, page = self.call, self.tab, self.page
        if tab.memory.of(StoppedAnswering).busy:
            await _recover_if_stuck(call, tab)
        self.before, self.baseline = await _looks_before(tab, self.navigation, self.begun, self.answering_for)
        # a page whose script did not answer the look before is not asked again: the look would wait too
        self.showing = await _showing(page, self.before) if self.answering_for else None
        self.remembered = self.answering_for and self.before is not None and await open_popups.remember(page)
        self.counter = await trace.timed(
            "popup counter", call.services.popups.of(call.session.context.browser)
        )
        await call.services.settings.ready(page)  # a new tab gets the session's settings before it loads
        self.marks = call.services.settings.marks(call.session)  # so the report can name what routes answered

    @contextmanager
    def watching(self) -> Iterator[tuple[ActionWatch, TabWatch]]:
        """While the action runs and settles and the look after is taken: its requests, tabs and dialogs."""
        call, page = self.call, self.page
        with (
            ActionWatch(page, self.tab.sockets) as watch,
            TabWatch(call.session, page, self.counter, call.services.page_logs.dialogs) as tabs,
        ):
            watch.looks, watch.held = True, self.held  # the last wait for quiet brings the look after
            trace.mark("watching")
            yield watch, tabs

    async def act(self, action: Action, watch: ActionWatch) -> str:
        """The action, then settling until the page has answered; our note when that hit its cap."""
        more = (self.call.nav_timeout_ms, self.early, self.showing)
        settling = lambda: _settle(self.tab, watch, self.doing, self.options, more)  # noqa: E731
        capped = await _act(self.page, self.doing, action, settling)
        trace.mark("settled")
        if watch.busy:
            self.tab.memory.of(StoppedAnswering).busy = True
        return capped

    async def look(self, watch: ActionWatch, tabs: TabWatch, capped: str) -> Outcome:
        """The look after and what it shows against the look before: the report's lines."""
        call, tab, page = self.call, self.tab, self.page
        outcome = Outcome(page.url, call.raw, call.json)
        outcome.trailer += [capped] if capped else []
        acted = _Acted(
            call,
            tab,
            watch,
            tabs,
            self.early,
            self.before,
            self.baseline,
            self.navigation,
            self.asked,
            self.held,
        )
        try:
            await trace.timed("describe", _describe(acted, outcome))
            if self.remembered and not page.is_closed() and "navigation" not in outcome.fields:
                await open_popups.report(page, call.name, outcome, escaped=self.doing == "pressing Escape")
        except (PlaywrightError, BrowseError):
            if not page.is_closed():
                raise
            closed_itself(call.session, outcome, tab)  # it closed while the report looked at it
        finally:
            self.early.finish_later()
        trace.mark("described")
        return outcome

    def report(self, outcome: Outcome) -> Outcome:
        """The report with what the session's routes answered meanwhile."""
        outcome.notes += self.call.services.settings.report(self.call.session, self.marks, outcome.url)
        return outcome


async def _act(page: Page, doing: str, action: Action, settling: Callable[[], Awaitable[str]]) -> str:
    """The action, then settling; our note when settling hit its cap. A tab that closed is no error."""
    try:
        await trace.timed("action", action())
        return await trace.timed("settle", settling())
    except PlaywrightError as exc:
        if not page.is_closed():
            raise translate(exc, doing) from exc
    except Unavailable:
        if not page.is_closed():
            raise  # the browser, not the tab, went away
    return ""


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
    asked: AskedOf
    held: str | None  # the key the action's field or box is held under (see `perform`)


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
    tab: Tab, navigation: bool, begun: PageReport | None, shown: bool
) -> tuple[PageReport | None, str | None]:
    """What the page reports before the action (`begun` when the action's own first call took it;
    with the page's state if `shown`), and its view when the action's change is to be diffed. A
    navigation away from a pristine tab has nothing to compare: its blank page shows nothing, and
    the page it reaches is a new document."""
    if navigation and begun is None and tab.pristine:
        return None, None
    try:
        before = begun
        if before is None:
            looking = observe(tab, begin=True, also=Also(shown=shown))
            seen = await answered(trace.timed("look before", looking))
            before = seen[1] if seen else None
        if navigation or before is None or not _viewable(before):
            return before, None
        return before, await answered(trace.timed("view before", before_view(tab, before)))
    except PageBusy:
        return None, None  # the action itself will meet the busy page and say so


async def _showing(page: Page, before: PageReport | None) -> answering.PageLook | None:
    """The page's state before the action: taken with the look before, or looked at now."""
    if before is None:
        return None
    return answering.state_of(before.shown) or await answering.look(page)


async def _settle(
    tab: Tab,
    watch: ActionWatch,
    doing: str,
    options: SettleOptions,
    more: tuple[int, EarlyReading, answering.PageLook | None],
) -> str:
    """Settle, then on until the page has answered; our note when that hit its cap."""
    nav_ms, early, showing = more
    if not options.wait:
        if watch.committed and not watch.navigating:  # --no-wait: a navigation under way is only said
            await follow_navigation(watch, doing, nav_ms)
        return ""
    shown = options.budget_ms > 0  # the page's state as it went quiet, for settling on until it answered
    now = await settle(tab, watch, doing, options.budget_ms, nav_ms, early.start, shown)
    if watch.navigating:  # the browser announced the action's navigation after the page went quiet
        now = await settle(tab, watch, doing, options.budget_ms, nav_ms, early.start, shown)
    capped = await trace.timed("answer", _answered(tab, watch, options, (showing, answering.state_of(now))))
    if watch.navigating:  # the page navigated while it was being answered for
        await settle(tab, watch, doing, options.budget_ms, nav_ms, early.start)
    return capped


async def _answered(
    tab: Tab,
    watch: ActionWatch,
    options: SettleOptions,
    states: tuple[answering.PageLook | None, answering.PageLook | None],
) -> str:
    """Settle on while the page is an empty shell still growing, or shows a loading indicator the
    action brought up (`states`: the page's state before the action, and as settling ended); our
    note when the cap was hit."""
    if options.budget_ms == 0 or tab.page.is_closed() or watch.busy:
        return ""
    showing, now = states
    if await answering.busy_sign_due(watch.spoke_at):
        now = None  # the page may show a sign of work since settling ended
    if answering.waits(tab.page, showing, now):
        watch.look = None  # the look as settling ended is not the page once it has answered
    return await answering.until_answered(tab.page, showing, now)


async def _describe(acted: _Acted, out: Outcome) -> None:
    tab, watch, before, navigation = acted.tab, acted.watch, acted.before, acted.navigation
    await trace.timed("tab lines", tab_lines(acted.call.session, tab, acted.tabs, out))
    if tab.page.is_closed():
        await handover.opener_changes(acted.call, tab, out)
        return
    if watch.busy:
        _busy(out, watch, before, navigation)
        return
    viewing = acted.baseline is not None and not watch.navigating
    try:
        looked = await _look_after(tab, watch, acted.early, viewing, acted.held)
    except PageBusy:
        _busy(out, watch, before, navigation)
        return
    if looked is None:  # --no-wait, and a navigation is in flight: the page answers once it commits
        if not navigation:
            navigation_line(out, watch, before, None, True)
        return
    after, view, taken = looked
    out.held = after.held if after is not None else None
    new_document = before is None or after is None or after.document != before.document
    if not navigation:
        navigation_line(out, watch, before, after, new_document)
    arrived = await _arrival(acted, out, after)
    if not arrived.view:
        _prepare_unless_read(tab, after, acted.early, viewing)
    dialogs_and_downloads(out, acted.tabs)
    if acted.navigation or "navigation" in out.fields:  # what the agent came to read comes first
        await passage.into_report(tab.page, out)
    _page_lines(out, before, after, new_document, arrived)
    if acted.baseline is not None and after is not None and not new_document:
        view_lines(tab, out, after, (acted.baseline, view), taken, acted.asked, acted.call.raw)
    await handover.hand_over(acted.call, tab, acted.tabs, out)
    _unchanged(acted, out, after)


def _unchanged(acted: _Acted, out: Outcome, after: PageReport | None) -> None:
    """An action that asked nothing of an element and changed nothing at all says so: "Clicked @e4"
    alone reads the same as a report whose lines were lost."""
    before = acted.before
    if acted.navigation or acted.asked is not None or out.notes or out.quoted or out.trailer or out.fields:
        return
    if (
        before is not None
        and after is not None
        and (before.document, before.count) == (after.document, after.count)
    ):
        out.notes.append("nothing changed on the page")
        out.fields["unchanged"] = True


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
        keep_view(tab, after, (found.kept or found.view).rsplit("\n", 1)[0], found.texts)
    line = await tools_line(tab) if found.view else ""  # the page's own tools, named after its view
    return replace(found, view=f"{found.view}\n{line}") if line else found


async def _look_after(
    tab: Tab, watch: ActionWatch, early: EarlyReading, viewing: bool, held: str | None
) -> tuple[PageReport | None, str | None, PageSnapshot | None] | None:
    """What the page reports now (None if it cannot say; with what the `held` element holds), and
    its view and the snapshot it came from if asked; None while a navigation is in flight."""
    if watch.navigating:
        return None
    if watch.look is not None:  # taken as settling ended, nothing awaited since
        if held is not None:
            Probe(tab).release(held)
        looked: tuple[PageReport | None] | None = (watch.look,)
    else:
        looked = await unless_navigation(watch, answered(trace.timed("look after", _report(tab, held))))
    if looked is None:
        return None
    after = looked[0]
    viewed = viewing and after is not None
    if not viewed:
        return after, None, None
    view, taken = await answered(trace.timed("view after", _view_after(tab, after, early)))
    return after, view, taken


async def _report(tab: Tab, held: str | None) -> tuple[PageReport | None]:
    seen = await observe(tab, stamp=True, also=Also(held=held))
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


def _busy(out: Outcome, watch: ActionWatch, before: PageReport | None, navigation: bool) -> None:
    if not navigation:
        navigation_line(out, watch, before, None, True)
    if watch.navigating:  # the look waited on a document being replaced, not on a script
        return
    out.notes.append(f"the page is busy: its script has not answered for {ANSWER_MS} ms or more")
    out.fields["busy"] = True
