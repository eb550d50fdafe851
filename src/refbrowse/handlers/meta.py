"""Server: status and stop."""

from __future__ import annotations

import os
import time
from contextlib import suppress

from refbrowse import __version__
from refbrowse.errors import BrowseError
from refbrowse.handlers import Call, handler


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h {minutes}m {secs}s" if hours else f"{minutes}m {secs}s"


@handler("status")
async def status(call: Call) -> str:
    daemon = call.daemon
    host = daemon.host
    with suppress(BrowseError):
        await daemon.wait_for_browser()
    lines = [
        f"refbrowse {__version__}: healthy",
        f"mode: {host.mode}" + (f" ({host.executable})" if host.executable else ""),
        f"browser: {host.version or 'not running'}",
        f"pid: {daemon.pid}  port: {daemon.port}  uptime: {_duration(time.time() - daemon.started)}",
        f"workspace: {os.path.dirname(daemon.state_dir)}",
        f"idle shutdown in: {_duration(daemon.idle_seconds_left())}",
    ]
    if call.current_session is not None and call.current_tab is not None:
        session = call.current_session
        number = session.number(call.current_tab)
        lines.append(f"session: {session.name}  tabs: {len(session.tabs)}  current: {number}")
        lines.append(f"url: {call.current_tab.page.url}")
    lines.append(f"sessions: {', '.join(sorted(host.sessions)) or '(none)'}")
    lines += [line() for line in daemon.status_lines]
    return "\n".join(lines)


@handler("stop")
async def stop(call: Call) -> str:
    call.daemon.request_stop()
    return "Stopped."
