"""Tabs an action opened or closed: the agent goes where the action went.

A click that opens one tab or popup hands it over: it becomes the current tab
and the report is its view, as `tab N` prints it, with the way back. A tab
remembers the tab that opened it: when it closes (itself, or by `closetab`)
the opener is current again, and a popup that closed itself reports what
changed on its opener since it opened (the option it added, the field it
filled), as a diff of the opener's view.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action import arrival_view
from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.report import Outcome
from refbrowse.daemon.action.tab_watch import Opener, TabWatch, opener_of
from refbrowse.daemon.action.view_report import view_lines
from refbrowse.daemon.action.views import KeptView, take_view_of
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import PageBusy, answered, observe
from refbrowse.daemon.page.snapshot import huge_page, prepared
from refbrowse.errors import BrowseError


async def hand_over(call: ActingCall, tab: Tab, tabs: TabWatch, out: Outcome) -> None:
    """Remember who opened each new tab; one that stays open becomes current, its view the report's."""
    if not tabs.opened:
        return
    opened = [t for t in call.session.tabs if t.page in tabs.opened and not t.page.is_closed()]
    for new in opened:
        new.memory.of(Opener).tab = tab
    opened = [t for t in opened if not tabs.behind(t.page)]  # the agent stays, as a person does
    if len(opened) != 1 or tab.page.is_closed() or call.session.current is not tab:
        return
    new = opened[0]
    call.session.current = new
    try:
        now = await answered(prepared.look(new))
    except (BrowseError, PageBusy):
        if not _gone(call, new, tab):
            out.notes.append(f"now on tab {call.session.number(new)}: run `browse snapshot -i` for its refs")
        return
    found = await arrival_view.look(
        new, now.elements, huge_page.HUGE_ELEMENTS, call.nav_timeout_ms, call.raw, prepared.served(new, now)
    )
    if _gone(call, new, tab):
        return
    out.notes.append(
        f"now on tab {call.session.number(new)} (its view below); `browse closetab` goes back to tab"
        f" {call.session.number(tab)}"
    )
    out.url = new.page.url
    out.quoted += [found.view] if found.view else []
    out.trailer += [found.note] if found.note else []
    if found.data is not None:
        out.fields["page"] = found.data


def _gone(call: ActingCall, new: Tab, tab: Tab) -> bool:
    """Whether the tab handed over closed while it was read (the tab guard closes a storm of popups);
    then the agent stays on the tab it acted on."""
    if new in call.session.tabs and not new.page.is_closed():
        return False
    if call.session.current is new:
        call.session.current = tab
    return True


async def opener_changes(call: ActingCall, closed: Tab, out: Outcome) -> None:
    """A popup that closed itself: what changed on its opener, now current, since its view was kept."""
    opener = opener_of(closed)
    kept = opener.memory.of(KeptView).view if opener is not None else None
    if opener is None or kept is None or call.session.current is not opener:
        return
    try:
        seen = await answered(observe(opener, stamp=True))
        if seen is None or seen[1].document != kept.document:
            return
        view, taken = await answered(take_view_of(opener, document=kept.document))
    except (BrowseError, PageBusy, PlaywrightError):
        return
    out.url = opener.page.url
    view_lines(opener, out, seen[1], (kept.text, view), taken, raw=call.raw)
