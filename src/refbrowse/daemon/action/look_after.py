"""The look after an action, and the report's lines drawn from it against the look before.

`perform`'s look step: where the page went, tabs, dialogs and downloads, messages
that appeared, the arrival view of a new page, and the interactive view's diff.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from refbrowse.daemon.action import arrival_view, handover, passage
from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.report import Outcome, message_lines, navigation_line, said_above
from refbrowse.daemon.action.settle import (
    ActionWatch,
    unless_navigation,
)
from refbrowse.daemon.action.tab_watch import TabWatch, dialogs_and_downloads, tab_lines
from refbrowse.daemon.action.view_report import view_lines
from refbrowse.daemon.action.viewdiff import AskedOf
from refbrowse.daemon.action.views import came_between, keep_view, take_view_of
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import ANSWER_MS, Also, PageBusy, PageReport, Probe, answered, observe
from refbrowse.daemon.page.snapshot import huge_page, prepared
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.settling_read import EarlyReading
from refbrowse.daemon.page.webmcp.mention import tools_line

# Messages a whole view of a new page gives a line of their own: not said again on arrival. A server's
# message list ("message") is said on top: it is news, and the view's plain text line of it goes.
_IN_VIEW = frozenset(("alert", "status", "live region", "output", "invalid", "dialog"))


@dataclass(frozen=True, slots=True)
class Acted:
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


async def describe(acted: Acted, out: Outcome) -> None:
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
    moved = acted.navigation or "navigation" in out.fields
    read = await passage.at_fragment(tab.page) if moved else None  # what the agent came to read: first
    arrived = await _arrival(acted, out, after, passage.report_tokens(read))
    if not arrived.view:
        _prepare_unless_read(tab, after, acted.early, viewing)
    dialogs_and_downloads(out, acted.tabs)
    passage.into_report(out, tab.page.url, read)
    _page_lines(out, before, after, new_document, arrived)
    between = came_between(tab)  # in both of the diff's views: said apart, first
    if between and not new_document:
        out.quoted[:0] = ["over the page since the last report:", *between]
    if acted.baseline is not None and after is not None and not new_document:
        came = view_lines(tab, out, after, (acted.baseline, view), taken, acted.asked, acted.call.raw)
        passage.withdraw_if_unfolded(out, read, came)
    await handover.hand_over(acted.call, tab, acted.tabs, out)
    _unchanged(acted, out, after)


def _unchanged(acted: Acted, out: Outcome, after: PageReport | None) -> None:
    """An action that asked nothing of an element and that nothing else in the report speaks of says
    so: "Clicked @e4" or "Dragged @e3 onto @e5" alone reads the same as a report whose lines were lost.
    Nothing at all changed; or the page changed, but none of its controls or text (a class, a
    style: a drop the list did not take)."""
    before = acted.before
    if acted.navigation or acted.asked is not None or out.notes or out.quoted or out.trailer or out.fields:
        return
    if acted.call.flags.get("--no-wait"):
        return  # it answered before the page could react: that nothing changed yet says nothing
    if before is None or after is None or before.document != after.document:
        return
    if before.count == after.count:
        out.notes.append("nothing changed on the page")
        out.fields["unchanged"] = True
    elif acted.baseline is not None:  # its view was read again, and its diff and new text were empty
        out.notes.append("nothing changed in the page's controls or text")
        out.fields["view_unchanged"] = True


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
        unprinted = _IN_VIEW if whole else frozenset()
        message_lines(out, old, after.messages, unprinted=unprinted)
        said = {m[2] for m in after.messages if m not in old and m[0] not in (*unprinted, "dialog")}
        arrived = replace(arrived, view=said_above(arrived.view, said)) if said and arrived.view else arrived
    out.quoted += [arrived.view] if arrived.view else []
    out.trailer += [arrived.note] if arrived.note else []


async def _arrival(acted: Acted, out: Outcome, after: PageReport | None, spent: int) -> arrival_view.Arrival:
    """The view of the page the action arrived at: after a navigation to a new document, else nothing;
    within what is left of the report's budget when `spent` tokens of it went to a passage."""
    moved = acted.navigation or out.fields.get("navigation", {}).get("kind") in ("navigated", "same URL")
    if after is None or not moved:
        return arrival_view.Arrival()
    reading = await acted.early.matching(after.stamp)  # read while the action settled, if still the page
    call, tab = acted.call, acted.tab
    found = await arrival_view.look(
        tab, after.elements, huge_page.HUGE_ELEMENTS, call.nav_timeout_ms, call.raw, reading, spent
    )
    if found.data is not None:
        out.fields["page"] = found.data
    if found.whole and not call.raw:  # the view the next action diffs against: no need to read it again
        kept = (found.kept or found.view).rsplit("\n", 1)[0]
        keep_view(tab, after, kept, found.texts, found.scheme, found.links)
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
    reading = await early.matching(after.stamp if after else None)
    return await take_view_of(tab, reading, after.document if after else None)


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
