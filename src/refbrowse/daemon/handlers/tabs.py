"""Tabs: list, switch, open, close."""

from __future__ import annotations

from refbrowse.daemon.action import arrival_view
from refbrowse.daemon.action.navigation import load, navigate
from refbrowse.daemon.action.report import Outcome
from refbrowse.daemon.action.tab_watch import back_to_opener
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page import pagereads
from refbrowse.daemon.page.snapshot import huge_page, prepared
from refbrowse.daemon.services.policy import ALLOW_FILE_FLAG
from refbrowse.errors import BrowseError, UsageError


def _tab_at(session: Session, number: int) -> Tab:
    if number > len(session.tabs):
        raise UsageError(
            f"no tab {number}: tabs are numbered 1 to {len(session.tabs)}",
            "run `browse tabs` to list them",
        )
    return session.tabs[number - 1]


@handler("tabs")
async def tabs(call: Call) -> str:
    lines = []
    for number, tab in enumerate(list(call.session.tabs), 1):
        marker = "*" if tab is call.session.current else " "
        title = await _title(tab)
        if title is None:
            continue  # closed while listing (a popup closing itself, a storm being closed)
        lines.append(f"{marker} {number}  {title}  {tab.page.url}")
    return fence("\n".join(lines), "this session's tabs", call.raw)


async def _title(tab: Tab) -> str | None:
    """The tab's title, bounded; None when the tab is closed or closing."""
    found = await pagereads.title(tab.page)
    return None if found is None else found or "(no title)"


@handler("tab")
async def tab(call: Call) -> str:
    chosen = _tab_at(call.session, call.args[0])
    call.session.current = chosen
    await chosen.page.bring_to_front()
    return await _with_view(call, chosen, f"Switched to tab {call.session.number(chosen)}: {chosen.page.url}")


async def _with_view(call: Call, chosen: Tab, first: str) -> str:
    """`first`, then the tab's interactive view as a navigation's report prints it: its refs are next."""
    out = Outcome(chosen.page.url, call.raw, call.json)
    try:
        now = await prepared.look(chosen)
    except BrowseError:
        return out.report(first)
    reading = prepared.served(chosen, now)
    found = await arrival_view.look(
        chosen, now.elements, huge_page.HUGE_ELEMENTS, call.nav_timeout_ms, call.raw, reading
    )
    out.quoted += [found.view] if found.view else []
    out.trailer += [found.note] if found.note else []
    if found.data is not None:
        out.fields["page"] = found.data
    return out.report(first)


@handler("newtab")
async def newtab(call: Call) -> str:
    raw = call.arg(0)
    url = (
        call.services.policy.checked_url(raw, bool(call.flag(ALLOW_FILE_FLAG))) if raw else None
    )  # refused before a tab is opened
    opened = await call.session.new_tab()
    if not url:
        return f"Opened tab {call.session.number(opened)}: {opened.page.url}"
    call.services.file_grants.grant(opened.page, url)
    page, limit = opened.page, call.nav_timeout_ms
    outcome, _ = await navigate(call, f"loading {url}", lambda: load(page, url, limit), opened)
    return outcome.report(f"Opened tab {call.session.number(opened)}: {opened.page.url}")


@handler("closetab")
async def closetab(call: Call) -> str:
    number = call.arg(0)
    closing = _tab_at(call.session, number) if number is not None else call.tab
    number = call.session.number(closing)
    await closing.page.close()
    call.session.forget(closing)
    if call.session.current is None or closing is call.tab:
        back_to_opener(call.session, closing)  # a popup closed goes back to the page that opened it
    current = await call.session.current_tab()
    return f"Closed tab {number}; current tab {call.session.number(current)}: {current.page.url}"
