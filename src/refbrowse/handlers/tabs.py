"""Tabs: list, switch, open, close."""

from __future__ import annotations

from refbrowse.envelope import fence
from refbrowse.errors import UsageError
from refbrowse.handlers import Call, handler
from refbrowse.handlers.navigate import load, normalize_url
from refbrowse.session import Session, Tab


def _tab_at(session: Session, raw: str) -> Tab:
    try:
        number = int(raw)
    except ValueError:
        number = 0
    if not 1 <= number <= len(session.tabs):
        raise UsageError(
            f"no tab {raw}: tabs are numbered 1 to {len(session.tabs)}",
            "run `browse tabs` to list them",
        )
    return session.tabs[number - 1]


@handler("tabs")
async def tabs(call: Call) -> str:
    lines = []
    for number, tab in enumerate(call.session.tabs, 1):
        marker = "*" if tab is call.session.current else " "
        title = await tab.page.title() or "(no title)"
        lines.append(f"{marker} {number}  {title}  {tab.page.url}")
    return fence("\n".join(lines), "this session's tabs", call.raw)


@handler("tab")
async def tab(call: Call) -> str:
    chosen = _tab_at(call.session, call.args[0])
    call.session.current = chosen
    await chosen.page.bring_to_front()
    return f"Switched to tab {call.session.number(chosen)}: {chosen.page.url}"


@handler("newtab")
async def newtab(call: Call) -> str:
    opened = await call.session.new_tab()
    url = call.arg(0)
    if url:
        await load(opened.page, normalize_url(url), call.nav_timeout_ms)
    return f"Opened tab {call.session.number(opened)}: {opened.page.url}"


@handler("closetab")
async def closetab(call: Call) -> str:
    raw = call.arg(0)
    closing = _tab_at(call.session, raw) if raw else call.tab
    number = call.session.number(closing)
    await closing.page.close()
    call.session.forget(closing)
    current = await call.session.current_tab()
    return f"Closed tab {number}; current tab {call.session.number(current)}: {current.page.url}"
