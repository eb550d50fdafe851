"""The interactive view of a tab before and after an action: taken, and kept for the next action.

The view is what `snapshot -i` shows, taken by the one snapshot service, so
the refs in a diff are the refs the agent acts on. The view an action leaves
is kept per tab with the probe's mutation count: the next action reuses it
when the document has not changed since, and takes a fresh one otherwise.
`viewdiff` compares two of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbrowse.daemon.action import new_text
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import PageReport
from refbrowse.daemon.page.snapshot import linkcloud
from refbrowse.daemon.page.snapshot.prepared import Reading
from refbrowse.daemon.page.snapshot.render import RenderOptions, render
from refbrowse.daemon.page.snapshot.service import PageSnapshot, take_snapshot
from refbrowse.errors import BrowseError


@dataclass(frozen=True, slots=True)
class _View:
    document: str
    mutations: int  # the probe's count when the view was taken
    text: str
    texts: tuple[str, ...] | None = None  # the page's text then (`new_text`), when it was read with the view
    scheme: str = ""  # the page's colour scheme then ("dark", "light"), when it was read with the view
    links: linkcloud.Folds | None = None  # its prose links folded or not: the next view folds them alike


class KeptView:
    """The view a tab's next action diffs against (in its `TabMemory`)."""

    def __init__(self) -> None:
        self.view: _View | None = None
        # blocking overlays that came over the page after the last report, before this action began
        # (a welcome tour opened a second after load): in neither of its diff's views, said apart
        self.came_between: list[str] = []


async def before_view(tab: Tab, now: PageReport) -> str | None:
    """The interactive view as it is now: the kept one if nothing changed since, else a fresh one."""
    memory = tab.memory.of(KeptView)
    kept, memory.came_between = memory.view, []
    if kept is not None and kept.document == now.document and kept.mutations == now.count:
        return kept.text
    text, taken = await take_view_of(tab, document=now.document)
    scheme, links = (taken.triage.scheme if taken else ""), folds_in(tab, now, taken)
    if kept is not None and kept.document == now.document and text is not None:
        memory.came_between = overlays_new(kept.text, text)
    keep_view(tab, now, text, new_text.texts(taken), scheme, links)
    return text


def overlays_new(was: str, now: str) -> list[str]:
    """The blocking overlays of view `now` (each its `⚠ blocking …` line and the lines inside it) that
    view `was` did not have."""
    had = {line for line in was.splitlines() if line.startswith("⚠ blocking")}
    out: list[str] = []
    taking = False
    for line in now.splitlines():
        if line.startswith("⚠ blocking"):
            taking = line not in had
        elif not line.startswith("  "):
            taking = False
        if taking:
            out.append(line)
    return out


def came_between(tab: Tab) -> list[str]:
    """The overlays that came over the page before the running action began (said once)."""
    kept = tab.memory.peek(KeptView)
    if kept is None:
        return []
    found, kept.came_between = kept.came_between, []
    return found


async def take_view_of(
    tab: Tab, reading: Reading | None = None, document: str | None = None
) -> tuple[str | None, PageSnapshot | None]:
    """The interactive view now and the snapshot it was rendered from (a big change prints that whole);
    of the same `document` as the kept view, its prose links folded as that view folded them."""
    try:
        taken = await take_snapshot(tab, reading=reading)
    except BrowseError:
        return None, None
    links = _folds_of(tab, document)
    lines = render(taken, RenderOptions(interactive=True, show_url=False, links=links)).splitlines()
    return "\n".join(lines[:-1]), taken  # the last line is the token estimate, which is no change in the page


def _folds_of(tab: Tab, document: str | None) -> linkcloud.Folds | None:
    kept = tab.memory.of(KeptView).view
    return kept.links if kept is not None and document is not None and kept.document == document else None


def keep_view(
    tab: Tab,
    now: PageReport,
    text: str | None,
    texts: tuple[str, ...] | None = None,
    scheme: str = "",
    links: linkcloud.Folds | None = None,
) -> None:
    """Keep `text` as the tab's view at the moment `now` was reported, for the next action, with the
    page's text, colour scheme and folded links then when they were read too."""
    if text is not None:
        tab.memory.of(KeptView).view = _View(now.document, now.count, text, texts, scheme, links)


def folds_in(tab: Tab, now: PageReport, taken: PageSnapshot | None) -> linkcloud.Folds | None:
    """The prose links a view of `taken` from `take_view_of` folded (call it before keeping that view)."""
    if taken is None:
        return None
    return linkcloud.folds(taken.tree, taken.triage.viewport, _folds_of(tab, now.document))


def scheme_change(tab: Tab, taken: PageSnapshot | None) -> str:
    """`the page's colour scheme changed to dark`, when the kept view's page was light and is dark now
    (a theme switch changes no text and no control: its report said only that lines went)."""
    kept = tab.memory.of(KeptView).view
    was, now = (kept.scheme if kept else ""), (taken.triage.scheme if taken else "")
    return f"the page's colour scheme changed to {now}" if was and now and was != now else ""


def kept_texts(tab: Tab) -> tuple[str, ...] | None:
    """The page's text when the kept view was taken; None when it was not read with it."""
    kept = tab.memory.of(KeptView).view
    return kept.texts if kept is not None else None
