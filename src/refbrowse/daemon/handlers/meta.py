"""Server: status and stop."""

from __future__ import annotations

import asyncio
import os
import time
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError

from refbrowse import __version__
from refbrowse.daemon.command import Call, DaemonView, handler
from refbrowse.daemon.core.browser.driverstate import stopped
from refbrowse.errors import BrowseError

ROUND_TRIP_S = 3.0


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h {minutes}m {secs}s" if hours else f"{minutes}m {secs}s"


def _running(pid: int) -> bool:
    """False once `pid` has exited (a zombie not yet reaped counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except (OSError, IndexError):
        return True


async def _health(daemon: DaemonView) -> str:
    """Healthy only while both the browser and Playwright's driver answer, asked now: a driver
    killed a moment ago can still look alive in /proc on a loaded machine."""
    said = _seen_health(daemon)
    if said != "healthy" or daemon.host.browser is None:
        return said
    try:
        cdp = await asyncio.wait_for(daemon.host.browser.new_browser_cdp_session(), ROUND_TRIP_S)
        await asyncio.wait_for(cdp.detach(), ROUND_TRIP_S)
    except (PlaywrightError, TimeoutError):
        if not await daemon.host.lost(1.0):
            return f"unhealthy (the driver or the browser did not answer within {ROUND_TRIP_S:g} s)"
    return _seen_health(daemon)


def _seen_health(daemon: DaemonView) -> str:
    host = daemon.host
    if host.driver_pid and not _running(host.driver_pid):
        return "unhealthy (the node driver exited)"
    if stopped(host.driver_pid):
        return (
            f"unhealthy (the node driver, pid {host.driver_pid}, is stopped: `kill -CONT {host.driver_pid}`)"
        )
    if host.gone:
        return f"unhealthy ({host.gone})"
    if host.browser is not None and not host.browser.is_connected():
        return "unhealthy (the browser disconnected)"
    return "healthy"


@handler("status")
async def status(call: Call) -> str:
    daemon = call.daemon
    host = daemon.host
    with suppress(BrowseError):
        await daemon.wait_for_browser()
    health = await _health(daemon)
    if health != "healthy" and await host.lost(1.0):  # being restarted: say how that ended
        with suppress(BrowseError):
            await daemon.wait_for_browser()
        health = await _health(daemon)
    lines = [
        f"refbrowse {__version__}: {health}",
        f"mode: {host.describe()}",
        f"browser: {host.version or 'not running'}",
        f"pid: {daemon.pid}  uptime: {_duration(time.time() - daemon.started)}",
        f"listening: {daemon.listening_on()}",
        f"workspace: {os.path.dirname(daemon.state_dir)}",
        f"idle shutdown in: {_duration(daemon.idle_seconds_left())}",
    ]
    session = call.current_session
    tab = session.current if session is not None else None  # read now: a restart replaces the tabs
    if session is not None and tab is not None:
        lines.append(f"session: {session.name}  tabs: {len(session.tabs)}  current: {session.number(tab)}")
        lines.append(f"url: {tab.page.url}")
    lines.append(f"sessions: {', '.join(sorted(host.sessions)) or '(none)'}")
    lines += daemon.status_lines()
    return "\n".join(lines)


@handler("stop")
async def stop(call: Call) -> str:
    call.daemon.request_stop()
    return "Stopped."
