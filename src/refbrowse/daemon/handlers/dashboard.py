"""`dashboard`: a one-time link to the activity page (see `refbrowse.daemon.activity`).

`--open` never puts the link in a command line, which every local user can
read in the process list (one redeemed it first and took the page over): the
web browser is given a private page (mode 0600, in the state directory) that
sends it on to the link, and the page is removed once the link has expired.
It is one file, `dashboard.html`, written anew (a new file moved into place) for
each link, so pages never pile up in the state directory, even when the daemon
stops before a link expires.
That link's code is bound to a key written only in the page, so the code alone
(however learnt) opens nothing; the page's address is what is printed.
"""

from __future__ import annotations

import asyncio
import glob
import html
import os
import sys
import tempfile
import webbrowser
from contextlib import suppress

from refbrowse.daemon.command import Call, Reply, handler

VALID_FOR = "The link works once, within 60 seconds; run `browse dashboard` again for a fresh one."


@handler("dashboard")
async def dashboard(call: Call) -> str:
    session = call.current_session.name if call.current_session else "default"
    if call.flag("--open"):
        page = _forwarding_page(await call.services.activity.bound_url(session), call.daemon.state_dir)
        url = "file://" + page
        lines = [url, VALID_FOR, await _open(page)]
    else:
        url = await call.services.activity.url(session)
        lines = [url, VALID_FOR]
    text = "\n".join(lines)
    return Reply(text, {"url": url}) if call.json else text


LINK_LIFE_S = 60.0
PAGE_NAME = "dashboard.html"

_FORWARD = """<!doctype html><meta charset=utf-8><meta name=referrer content=no-referrer>
<meta http-equiv=refresh content="0; url={url}"><title>refbrowse activity</title>
<p><a href="{url}">Open the activity page</a></p>
"""


async def _open(page: str) -> str:
    asyncio.get_running_loop().call_later(LINK_LIFE_S, _remove, page, os.stat(page).st_ino)
    # Without a display, `webbrowser` would start a text browser with no terminal to show it in.
    has_display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not has_display:
        return "No display to open a web browser on: open the link on this computer yourself."
    opened = await asyncio.to_thread(webbrowser.open, "file://" + page)
    return "Opened in the web browser." if opened else "No web browser to open it in: open the link yourself."


def _forwarding_page(url: str, state_dir: str) -> str:
    """A page only this user can read that sends a web browser to `url`; its path (always the same one)."""
    path = os.path.join(state_dir, PAGE_NAME)
    fd, temporary = tempfile.mkstemp(prefix="dashboard-", suffix=".tmp", dir=state_dir)  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(_FORWARD.format(url=html.escape(url)))
        os.replace(temporary, path)  # a symlink planted at `path` is replaced, never followed
    except BaseException:  # whatever stopped the write, the temporary file goes, and the error goes on
        with suppress(FileNotFoundError):
            os.remove(temporary)
        raise
    _remove_old_pages(state_dir)
    return path


def _remove(path: str, inode: int) -> None:
    """The page, unless a newer link's page has taken its place meanwhile."""
    with suppress(FileNotFoundError):
        if os.lstat(path).st_ino == inode:
            os.remove(path)


def _remove_old_pages(state_dir: str) -> None:
    """Link pages named `dashboard-XXXX.html` (one file per link) that a stopped daemon left behind."""
    for old in glob.glob(os.path.join(glob.escape(state_dir), "dashboard-*.html")):
        with suppress(OSError):
            os.remove(old)
