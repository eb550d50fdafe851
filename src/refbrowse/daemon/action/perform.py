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
from typing import TypeGuard

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.action import answering, open_popups
from refbrowse.daemon.action.acting import ActingCall, Begun, StoppedAnswering
from refbrowse.daemon.action.look_after import Acted, describe
from refbrowse.daemon.action.report import Outcome
from refbrowse.daemon.action.settle import (
    ActionWatch,
    SettleOptions,
    follow_navigation,
    settle,
    settle_options,
)
from refbrowse.daemon.action.tab_watch import TabWatch, closed_itself
from refbrowse.daemon.action.viewdiff import AskedOf
from refbrowse.daemon.action.views import before_view
from refbrowse.daemon.core.browser import driverstate
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import Also, PageBusy, PageReport, answered, observe
from refbrowse.daemon.page.popups import PopupCounter
from refbrowse.daemon.page.snapshot import huge_page
from refbrowse.daemon.page.snapshot.settling_read import EarlyReading
from refbrowse.daemon.page.tabguard import TabStuck, answers, probe_timeout_s
from refbrowse.errors import BrowseError, Unavailable

Action = Callable[[], Awaitable[object]]


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
        self.context = ""  # the tab's browserContextId, for the counter
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
        self.context = await call.services.popups.context_of(page) if self.counter else ""
        await call.services.settings.ready(page)  # a new tab gets the session's settings before it loads
        self.marks = call.services.settings.marks(call.session)  # so the report can name what routes answered

    @contextmanager
    def watching(self) -> Iterator[tuple[ActionWatch, TabWatch]]:
        """While the action runs and settles and the look after is taken: its requests, tabs and dialogs."""
        call, page = self.call, self.page
        with (
            ActionWatch(page, self.tab.sockets) as watch,
            TabWatch(
                call.session, page, (self.counter, self.context), call.services.page_logs.dialogs
            ) as tabs,
        ):
            watch.looks, watch.held = True, self.held  # the last wait for quiet brings the look after
            tabs.background = call.services.clipboards.opens_in_background(page)
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
        acted = Acted(
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
            await trace.timed("describe", describe(acted, outcome))
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
    fault = await driverstate.at_fault(call.services.tab_guard.host)
    if fault is not None:  # nothing answers: the page is not to blame, its tab stays
        raise fault
    why = f"it did not answer for {probe_timeout_s():g} s (a script that never yields?)"
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
