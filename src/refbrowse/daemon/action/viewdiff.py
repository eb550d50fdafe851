"""The interactive view before and after an action, and the compact diff between them.

The view is what `snapshot -i` shows, taken by the one snapshot service, so
the refs in a diff are the refs the agent acts on. The view an action leaves
is kept per tab with the probe's mutation count: the next action reuses it
when the document has not changed since, and takes a fresh one otherwise.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from refbrowse.daemon.core.tab import Tab
from refbrowse.daemon.page.pageprobe import PageReport
from refbrowse.daemon.page.snapshot.prepared import Reading
from refbrowse.daemon.page.snapshot.render import RenderOptions, render
from refbrowse.daemon.page.snapshot.service import capture
from refbrowse.errors import BrowseError

DIFF_LIMIT = 12  # changed lines shown; beyond, the rest is counted
_A_LOT = 40  # changed lines beyond which one line says the page changed a lot
_A_LOT_SHARE = 0.6  # …or this share of the view's lines
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')  # a JSON string: names and values in a view line


@dataclass(frozen=True, slots=True)
class _View:
    document: str
    mutations: int  # the probe's count when the view was taken
    text: str


class KeptView:
    """The view a tab's next action diffs against (in its `TabMemory`)."""

    def __init__(self) -> None:
        self.view: _View | None = None


async def before_view(tab: Tab, now: PageReport) -> str | None:
    """The interactive view as it is now: the kept one if nothing changed since, else a fresh one."""
    kept = tab.memory.of(KeptView).view
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
        tab.memory.of(KeptView).view = _View(now.document, now.count, text)


@dataclass(frozen=True, slots=True)
class Asked:
    """The change an action asked of its own element: `fill @e3 "ada"` asks for `: "ada"` on @e3's line.

    When the element's new line says all of `shows`, the action's first
    line already said it all: the element's lines are left out of the diff.
    `absent` inverts the test (`uncheck`: no more `[checked]`); `fold`
    compares without case (`select @e4 express` shows "Express"). A hidden
    password is taken as what was asked: the view never shows it.
    """

    ref: str
    shows: tuple[str, ...]
    absent: bool = False
    fold: bool = False

    def done(self, line: str) -> bool:
        if "(password hidden)" in line:
            return True
        seen = line.casefold() if self.fold else line
        there = all((part.casefold() if self.fold else part) in seen for part in self.shows)
        return not there if self.absent else there


def _block(lines: list[str], ref: str) -> tuple[int, int] | None:
    """Where the element `ref` sits in a view: its line and the deeper lines under it (a select's options)."""
    mark = re.compile(re.escape(ref) + r"(?![\w])")
    for start, line in enumerate(lines):
        if mark.search(_QUOTED.sub('""', line)):  # a ref the page wrote in a name is not one
            depth = len(line) - len(line.lstrip())
            end = start + 1
            while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > depth:
                end += 1
            return start, end
    return None


def _without_asked(old: list[str], new: list[str], asked: Asked | None) -> tuple[list[str], list[str]]:
    """Both views without the acted element's lines, when its change is just what was asked."""
    if asked is None:
        return old, new
    was, now = _block(old, asked.ref), _block(new, asked.ref)
    if was is None or now is None or not asked.done(new[now[0]]):
        return old, new
    return old[: was[0]] + old[was[1] :], new[: now[0]] + new[now[1] :]


def _folded(changed: list[str]) -> list[str]:
    """The diff lines worth reading: what a removed element held is one count, not its lines again.

    A closed menu or list takes its options with it, and their refs are gone:
    `-- listbox "Size" @e5 (and the 4 lines inside it)` says as much. A modal's
    one line in the tree (`(listed above)`) repeats the overlay lines above it.
    """
    out: list[str] = []
    gone_at = -1  # indentation of the removed line whose inside is being counted
    inside = 0
    for line in changed:
        depth = len(line) - len(line[1:].lstrip()) - 1
        if line[0] == "-" and gone_at >= 0 and depth > gone_at:
            inside += 1
            continue
        _close(out, inside)
        inside, gone_at = 0, depth if line[0] == "-" else -1
        if not line.endswith(" (listed above)"):
            out.append(line)
    _close(out, inside)
    return out


def _close(out: list[str], inside: int) -> None:
    if inside and out:
        out[-1] += f" (and the {inside} line{'s' if inside != 1 else ''} inside it)"


def _mostly_gone(changed: list[str]) -> tuple[list[str], list[str]]:
    """A big change: what came, when it is short (a tab's panel, a wizard's next step), and a count of
    what went; else one line. What came is what the agent acts on next."""
    came = [line for line in changed if line.startswith("+")]
    if not came or len(came) > DIFF_LIMIT:
        return [], [f"the page changed a lot ({len(changed)} lines of the view changed): run `snapshot -i`"]
    gone = len(changed) - len(came)
    return ["changed in the interactive view:", *came], [
        f"… and {gone} line{'s' if gone != 1 else ''} gone, run `snapshot -i -D` to see them"
    ]


def view_change(before: str, after: str | None, asked: Asked | None = None) -> tuple[list[str], list[str]]:
    """(lines quoting the page, our own lines) that describe how the view changed, beyond what was asked."""
    if after is None or after == before:
        return [], []
    old, new = _without_asked(before.splitlines(), after.splitlines(), asked)
    changed = [
        line
        for line in difflib.unified_diff(old, new, n=0, lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    changed = _folded(changed)
    if not changed:
        return [], []
    share = len(changed) / max(len(old), len(new), 1)
    if len(changed) > _A_LOT or (len(changed) > DIFF_LIMIT and share > _A_LOT_SHARE):
        return _mostly_gone(changed)
    shown = changed[:DIFF_LIMIT]
    more = len(changed) - len(shown)
    trailer = [f"… {more} more, run `snapshot -i -D`"] if more else []
    return ["changed in the interactive view:", *shown], trailer
