"""Visible and remote browsers: `connect`, `disconnect`, `focus`, `handoff`, `resume`.

`connect` and `disconnect` replace the daemon's browser (see `BrowserHost.switch`):
every session keeps its cookies, storage, tabs and current tab, and its refs
retire. `handoff` does the same for a person, with what to tell them; `resume`
goes back to where the agent was and prints a fresh `snapshot -i`.
"""

from __future__ import annotations

import logging
import time

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.display import (
    MARKER_COLOUR,
    MARKER_TAG,
    TOUCHED_SCRIPT,
    can_show_a_window,
    raise_window,
)
from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.browser.target import BrowserTarget, channel_path, forget, recalled
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.page.resolver import resolve_one
from refbrowse.daemon.services.cookies.model import domains, plural
from refbrowse.daemon.services.handoff import Handoffs
from refbrowse.daemon.services.remotehops import GUARD_DOWN_HINT
from refbrowse.errors import Unavailable, UsageError

log = logging.getLogger("refbrowse")


def _handoffs(call: Call) -> Handoffs:
    return call.services.handoffs


@handler("connect")
async def connect(call: Call) -> str:
    host = call.daemon.host
    cdp, channel = call.flag("--cdp"), call.flag("--channel")
    if isinstance(cdp, str):
        # A remote browser is a place the session's secrets go: the host policy applies to it.
        call.services.policy.check_url(cdp if "://" in cdp else f"http://{cdp}")
        target = BrowserTarget(cdp_url=cdp, proxy=host.target.proxy)
    else:
        target = host.target.local(headed=True, channel=_channel(channel))
    hops = call.services.remote_hops
    if target == host.target:
        await hops.rewatch()
        _refuse_unguarded(call)
        return f"Already connected: mode {host.describe()}"
    carried = await _cookies_carried(host) if isinstance(cdp, str) else ""
    said = await _switch(call, target) + carried
    _refuse_unguarded(call)
    return said


def _refuse_unguarded(call: Call) -> None:
    """`connect` fails (and says why) when it leaves the daemon on a remote browser it may not use."""
    why = call.services.remote_hops.refusing()
    if why:
        raise Unavailable(
            f"connected to {call.daemon.host.describe()}, but BROWSE_ALLOWED_HOSTS is set and its workers"
            f" cannot be guarded: {why}; no command browses there until they are",
            GUARD_DOWN_HINT,
        )


async def _cookies_carried(host: BrowserHost) -> str:
    """Which cookies go to the remote browser, said before anyone relies on it (HttpOnly ones too)."""
    lines = []
    for session in host.sessions.values():
        try:
            cookies = await session.context.cookies()
        except PlaywrightError:
            continue
        if cookies:
            named = domains(cookies)
            lines.append(
                f"session {session.name}: carried {plural(len(cookies), 'cookie')} to it, for {named}"
            )
    return "".join(f"\n{line}" for line in lines)


def _channel(given: str | bool | None) -> str:
    if isinstance(given, str):
        return given
    return "chrome" if channel_path("chrome") else ""  # the system's Chrome when there is one


@handler("disconnect")
async def disconnect(call: Call) -> str:
    host = call.daemon.host
    try:
        await call.daemon.wait_for_browser()
    except Unavailable:
        if not host.state_dir or recalled(host.state_dir) is None:
            raise
        forget(host.state_dir)  # the browser `connect` chose is gone: leave it behind
        return (
            "Left the browser `connect` chose, which cannot be reached; the next command starts a local one"
        )
    target = host.target.local(headed=False)
    if target == host.target:
        return "Already headless"
    return await _switch(call, target)


async def _switch(call: Call, target: BrowserTarget) -> str:
    host = call.daemon.host
    await host.switch(target, call.nav_timeout_ms)
    for session in host.sessions.values():
        if session.current is not None:
            await session.current.page.bring_to_front()
    lines = [f"Now {host.describe()}"]
    lines += [_carried(session) for session in host.sessions.values()]
    lines.append("Refs from before no longer work: run `browse snapshot -i` for new ones")
    return "\n".join(lines)


def _carried(session: Session) -> str:
    current = (
        f"tab {session.number(session.current)}: {session.current.page.url}" if session.current else "none"
    )
    return f"session {session.name}: {len(session.tabs)} tab(s) carried over, current {current}"


async def _take_touched_tabs(host: BrowserHost, since: float) -> None:
    """The tab a person last used during a handoff becomes the session's current tab."""
    for session in host.sessions.values():
        latest, chosen = since * 1000, None
        for tab in session.tabs:
            touched = await _touched(tab.page)
            if touched > latest:
                latest, chosen = touched, tab
        if chosen is not None:
            session.current = chosen


async def _touched(page: Page) -> float:
    try:
        return float(await page.evaluate(TOUCHED_SCRIPT, MARKER_TAG))
    except PlaywrightError:
        return 0.0


@handler("focus")
async def focus(call: Call) -> str:
    host = call.daemon.host
    await call.page.bring_to_front()
    done = ["Page.bringToFront"]
    if host.mode != "headless":
        done += await _raise(host, call.page)
    said = f"Brought tab {call.session.number(call.tab)} to the front ({', '.join(done)})"
    if host.mode == "headless":
        said += "; the browser is headless, so there is no window: `browse connect` opens one"
    selector = call.arg(0)
    if selector:
        element = await resolve_one(call.tab, selector)
        await element.scroll_into_view_if_needed()
        said += f"; {selector} scrolled into view"
    return said


async def _raise(host: BrowserHost, page: Page) -> list[str]:
    """Un-minimise the window through CDP, then raise it with the platform's tool."""
    done = []
    cdp = await page.context.new_cdp_session(page)
    try:
        window = await cdp.send("Browser.getWindowForTarget")
        await cdp.send(
            "Browser.setWindowBounds", {"windowId": window["windowId"], "bounds": {"windowState": "normal"}}
        )
        done.append("Browser.setWindowBounds")
    except PlaywrightError as exc:
        log.info("window bounds not set: %s", exc.message.splitlines()[0])
    finally:
        await cdp.detach()
    if host.mode == "headed":
        tool = await raise_window(await host.browser_pid(), host.display.client_env())
        done += [tool] if tool else []
    return done


@handler("handoff")
async def handoff(call: Call) -> str:
    host = call.daemon.host
    reason = (call.arg(0) or "").strip() or "finish this step"
    handoffs = _handoffs(call)
    before = host.target
    if host.mode == "headless" and not can_show_a_window():
        return await _handoff_on_the_activity_page(call, reason)
    if host.mode != "headed":
        await host.switch(host.target.local(headed=True, channel=_channel(None)), call.nav_timeout_ms)
    handoffs.begin(before, reason)
    tab = call.session.current or await call.session.current_tab()
    await tab.page.bring_to_front()
    await _raise(host, tab.page)
    return "\n".join(_handoff_lines(host, call.session, reason, tab.page.url))


async def _handoff_on_the_activity_page(call: Call, reason: str) -> str:
    """No window can be shown here: the person takes the page over on the activity page."""
    handoffs = _handoffs(call)
    handoffs.begin(call.daemon.host.target, reason, by_page=True)
    url = await call.services.activity.url(call.session.name)
    return "\n".join(
        [
            f"Handed off to a person: {reason}",
            "There is no display here for a visible browser window; the person works on the page "
            "through the activity page's live view instead (they have control already):",
            url,
            "The link works once, within 60 seconds; `browse dashboard` prints a fresh one.",
            f'Tell the person: "Please open that link, {reason} in the live view, then tell me '
            'when you are done."',
            "Until then your commands fail; when they are done, run `browse resume`.",
        ]
    )


def _handoff_lines(host: BrowserHost, session: Session, reason: str, url: str) -> list[str]:
    lines = [
        f"Handed off to a person: {reason}",
        f"A visible browser window shows {url}, with all of session {session.name}'s cookies and tabs;",
        f"it is marked by a thin {MARKER_COLOUR} line along its top edge and a small 'refbrowse' pill.",
    ]
    if host.display.display:
        lines.append(
            f"No screen shows it: it runs on this machine's private display {host.display.display} (Xvfb). "
            "A person can see it through VNC: "
            f"`x11vnc -display {host.display.display} -auth {host.display.authority}`."
        )
    lines += [
        f'Tell the person: "Please {reason} in the browser window marked refbrowse ({url}), '
        'then tell me when you are done. Leave the window open."',
        "When they are done, run `browse resume`: it takes the page back with what they did.",
    ]
    return lines


@handler("resume")
async def resume(call: Call) -> str:
    host = call.daemon.host
    handoffs = _handoffs(call)
    given_back = handoffs.take_given_back()
    if not handoffs.active and not given_back:
        raise UsageError(
            "no handoff is in progress", 'start one with `browse handoff "what a person should do"`'
        )
    if handoffs.active:
        if host.mode == "headed":
            await _take_touched_tabs(host, handoffs.since)
        before = handoffs.end()
        if before is not None and before != host.target:
            await host.switch(before, call.nav_timeout_ms)
    session = host.sessions.get(call.session.name, call.session)
    lines = [f"Resumed: {host.describe()}", _carried(session)]
    if given_back and not handoffs.active:
        at = time.strftime("%H:%M:%S", time.localtime(given_back))
        lines.insert(1, f"The person gave control back on the activity page at {at}.")
    result = await call.daemon.dispatch(
        CheckedRequest("snapshot", flags={"-i": True}, session=session.name, raw=call.raw)
    )
    lines.append(result["output"] if result["ok"] else f"(snapshot failed: {result['error']})")
    return "\n".join(lines)
