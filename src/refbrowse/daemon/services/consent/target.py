"""What an action would do, read from the page before it runs: the consent gate's `Consequence`.

Only commands that can have consequences are looked at: a click or double
click (its target's words, the form it submits, the link it follows), Enter
(the form of the focused field), upload, download, `js`/`eval` and page tools.
The look is bounded: a page that does not answer is described by the command
alone, and the command then meets the busy page itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.resolver import resolve_one
from refbrowse.daemon.services.consent.policy import Consequence
from refbrowse.errors import BrowseError
from refbrowse.registry import COMMANDS

LOOK_S = 2.0
SCRIPT = script("consequence")
_SHOWN_CHARS = 80


async def consequence(command: str, args: tuple[str, ...], tab: Tab | None) -> Consequence | None:
    """What `command ARGS` would do on `tab`'s page; None for a command without consequences."""
    looked = COMMANDS[command].get("consent") if command in COMMANDS else None
    if looked is None:
        return None
    first = args[0] if args else ""
    shown = first if len(first) <= _SHOWN_CHARS else first[:_SHOWN_CHARS] + "…"
    url = tab.page.url if tab is not None and not tab.page.is_closed() else ""
    base = Consequence(command, shown, page_url=url)
    if command == "download" and "://" in first:
        return Consequence(command, shown, page_url=url, href=first, download=True)
    if tab is None or looked != "target":
        return base
    if command == "press" and first.lower() != "enter":
        return None
    try:
        facts = await asyncio.wait_for(_facts(tab, command, first), LOOK_S)
    except (PlaywrightError, BrowseError, TimeoutError):
        return base
    if facts is None:
        return base
    if command == "press" and not facts["method"]:
        return None  # Enter in a field of no form submits nothing
    return Consequence(
        command,
        shown,
        str(facts["name"]),
        str(facts["role"]),
        url,
        str(facts["method"]),
        str(facts["action"]),
        str(facts["href"]),
        bool(facts["download"]),
    )


async def _facts(tab: Tab, command: str, selector: str) -> dict[str, Any] | None:
    if command == "press":
        focused = (await tab.page.evaluate_handle("() => document.activeElement")).as_element()
        return None if focused is None else await focused.evaluate(SCRIPT, True)
    locator = await resolve_one(tab, selector)
    found: dict[str, Any] = await locator.evaluate(SCRIPT, False)
    return found
