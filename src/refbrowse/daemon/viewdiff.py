"""The interactive view before and after an action, and the compact diff between them.

The view is what `snapshot -i` shows, taken by the one snapshot service, so
the refs in a diff are the refs the agent acts on. The view an action leaves
is kept per tab with the probe's mutation count: the next action reuses it
when the document has not changed since, and takes a fresh one otherwise.
"""

from __future__ import annotations

import difflib
import weakref
from dataclasses import dataclass

from refbrowse.daemon.pageprobe import PageReport
from refbrowse.daemon.session import Tab
from refbrowse.daemon.snapshot.prepared import Reading
from refbrowse.daemon.snapshot.render import RenderOptions, render
from refbrowse.daemon.snapshot.service import capture
from refbrowse.errors import BrowseError

DIFF_LIMIT = 12  # changed lines shown; beyond, the rest is counted
_A_LOT = 40  # changed lines beyond which one line says the page changed a lot
_A_LOT_SHARE = 0.6  # …or this share of the view's lines


@dataclass(frozen=True, slots=True)
class _View:
    document: str
    mutations: int  # the probe's count when the view was taken
    text: str


_views: weakref.WeakKeyDictionary[Tab, _View] = weakref.WeakKeyDictionary()


async def before_view(tab: Tab, now: PageReport) -> str | None:
    """The interactive view as it is now: the kept one if nothing changed since, else a fresh one."""
    kept = _views.get(tab)
    if kept is not None and kept.document == now.document and kept.mutations == now.count:
        return kept.text
    text = await take_view(tab)
    keep_view(tab, now, text)
    return text


async def take_view(tab: Tab, reading: Reading | None = None) -> str | None:
    """The interactive view now, from `reading` if that is the page as it is now; None if unreadable."""
    try:
        taken = await capture(tab, reading=reading)
    except BrowseError:
        return None
    lines = render(taken, RenderOptions(interactive=True, show_url=False)).splitlines()
    return "\n".join(lines[:-1])  # the last line is the token estimate, which is no change in the page


def keep_view(tab: Tab, now: PageReport, text: str | None) -> None:
    """Keep `text` as the tab's view at the moment `now` was reported, for the next action."""
    if text is not None:
        _views[tab] = _View(now.document, now.count, text)


def view_change(before: str, after: str | None) -> tuple[list[str], list[str]]:
    """(lines quoting the page, our own lines) that describe how the view changed."""
    if after is None or after == before:
        return [], []
    old, new = before.splitlines(), after.splitlines()
    changed = [
        line
        for line in difflib.unified_diff(old, new, n=0, lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    if not changed:
        return [], []
    share = len(changed) / max(len(old), len(new), 1)
    if len(changed) > _A_LOT or (len(changed) > DIFF_LIMIT and share > _A_LOT_SHARE):
        return [], [f"the page changed a lot ({len(changed)} lines of the view changed): run `snapshot -i`"]
    shown = changed[:DIFF_LIMIT]
    more = len(changed) - len(shown)
    trailer = [f"… {more} more, run `snapshot -i -D`"] if more else []
    return ["changed in the interactive view:", *shown], trailer
