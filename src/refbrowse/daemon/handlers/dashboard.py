"""`dashboard`: a one-time link to the activity page (see `refbrowse.daemon.services.activity`)."""

from __future__ import annotations

import asyncio
import os
import sys
import webbrowser

from refbrowse.daemon.command import Call, Reply, handler

VALID_FOR = "The link works once, within 60 seconds; run `browse dashboard` again for a fresh one."


@handler("dashboard")
async def dashboard(call: Call) -> str:
    session = call.current_session.name if call.current_session else "default"
    url = await call.services.activity.url(session)
    lines = [url, VALID_FOR]
    if call.flag("--open"):
        lines.append(await _open(url))
    text = "\n".join(lines)
    return Reply(text, {"url": url}) if call.json else text


async def _open(url: str) -> str:
    # Without a display, `webbrowser` would start a text browser with no terminal to show it in.
    has_display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not has_display:
        return "No display to open a web browser on: open the link on this computer yourself."
    opened = await asyncio.to_thread(webbrowser.open, url)
    return "Opened in the web browser." if opened else "No web browser to open it in: open the link yourself."
