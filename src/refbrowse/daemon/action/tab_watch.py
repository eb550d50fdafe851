"""What happens around an acting tab while an action runs: tabs that open, the tab closing
itself, dialogs and what was done with them, downloads; and the report's lines for them.
"""

from __future__ import annotations

from contextlib import suppress

from playwright.async_api import Dialog, Download, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action.report import Outcome, download_line, quote
from refbrowse.daemon.core.runtime.logbuffer import DialogEntry, RingBuffer
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.popups import PopupCounter, arrived

_POPUP_COMMIT_MS = 1_000  # how long a report waits for a new tab to know its URL
_POPUP_ARRIVAL_MS = 3_000  # how long for Playwright to announce a popup Chromium has created


class TabWatch:
    """Tabs that open, the acting tab closing, dialogs and downloads, while an action runs."""

    def __init__(
        self,
        session: Session,
        page: Page,
        counter: tuple[PopupCounter | None, str],
        dialog_log: RingBuffer[DialogEntry],
    ) -> None:
        self.session = session
        self.page = page
        self.counter, self.context = counter  # the browser's counter, the tab's browserContextId
        self.counted = self.counter.made(self.context) if self.counter else (0, 0)
        self.opened: list[Page] = []
        self.popups: list[Page] = []  # the opened pages that the acting tab opened
        self.downloads: list[Download] = []
        self.dialogs: list[tuple[str, str]] = []  # (type, message) in the acting tab
        self.background = False  # a tab it opens, not as a popup, stays behind (a Control-click's)
        self._log = dialog_log
        self._logged = dialog_log.total

    def __enter__(self) -> TabWatch:
        self.session.context.on("page", self._opened)
        self.page.on("download", self._download)
        self.page.on("dialog", self._dialog)
        self.page.on("popup", self._popup)
        return self

    def __exit__(self, *_: object) -> None:
        self.session.context.remove_listener("page", self._opened)
        self.page.remove_listener("download", self._download)
        self.page.remove_listener("dialog", self._dialog)
        self.page.remove_listener("popup", self._popup)

    def _opened(self, page: Page) -> None:
        self.opened.append(page)

    def _popup(self, page: Page) -> None:
        self.popups.append(page)

    def _download(self, download: Download) -> None:
        self.downloads.append(download)

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append((dialog.type, dialog.message))

    def behind(self, opened: Page) -> bool:
        """Whether `opened` is a tab the action opened in the background, as a person's Control-click does."""
        return self.background and opened not in self.popups

    def answers(self) -> dict[str, str]:
        """message → what was done with it, from the dialog log of this session."""
        entries = self._log.since(self._logged)
        return {e.message: e.action for e in entries if e.session == self.session.name}


def dialogs_and_downloads(out: Outcome, tabs: TabWatch) -> None:
    answered_as = tabs.answers()
    for kind, message in tabs.dialogs:
        done = answered_as.get(message, "answered by the dialog policy (see `browse dialog`)")
        out.quoted.append(f"{kind} dialog {quote(message)}: {done}")
        out.add("dialogs", {"type": kind, "message": message, "answer": done})
    for download in tabs.downloads:
        out.quoted.append(download_line(download))
        out.add("downloads", {"filename": download.suggested_filename, "url": download.url})


async def tab_lines(session: Session, tab: Tab, tabs: TabWatch, out: Outcome) -> None:
    await arrived(tabs.counter, tabs.context, tabs.counted, lambda: len(tabs.opened), _POPUP_ARRIVAL_MS)
    for opened in tabs.opened:
        with suppress(PlaywrightError):
            await opened.wait_for_load_state("domcontentloaded", timeout=_POPUP_COMMIT_MS)
        kind = "popup" if opened in tabs.popups else "tab"
        if opened.is_closed():
            out.notes.append(f"a {kind} opened and closed itself: {opened.url}")
            out.add("tabs", {"event": "opened and closed", "kind": kind, "url": opened.url})
            continue
        number = next((session.number(t) for t in session.tabs if t.page is opened), None)
        _opened_line(out, number, kind, opened.url, tabs.behind(opened))
    if tab.page.is_closed():
        closed_itself(session, out, tab)


def _opened_line(out: Outcome, number: int | None, kind: str, url: str, behind: bool) -> None:
    record: dict[str, object] = {"event": "opened", "kind": kind, "tab": number, "url": url}
    if behind:  # the agent stays where it is, as a person does after a Control-click
        out.notes.append(f"opened tab {number} in the background: {url} (`browse tab {number}` goes there)")
        record["background"] = True
    else:
        out.notes.append(f"opened tab {number} ({kind}): {url}")
    out.add("tabs", record)


class Opener:
    """The tab that opened this one (in the opened tab's `TabMemory`)."""

    def __init__(self) -> None:
        self.tab: Tab | None = None


def opener_of(tab: Tab) -> Tab | None:
    """The tab that opened `tab`, while it is still open."""
    kept = tab.memory.peek(Opener)
    opener = kept.tab if kept is not None else None
    return opener if opener is not None and not opener.page.is_closed() else None


def back_to_opener(session: Session, closed: Tab) -> None:
    """A closed tab's opener is current again, when it is still open."""
    opener = opener_of(closed)
    if opener is not None and opener in session.tabs:
        session.current = opener


def closed_itself(session: Session, out: Outcome, closed: Tab | None = None) -> None:
    """The acted tab closed itself (a popup that posted its form): say so once, and where the agent is now."""
    if any(record.get("event") == "this tab closed itself" for record in out.fields.get("tabs", ())):
        return
    if closed is not None:
        back_to_opener(session, closed)
    current = session.current
    where = f"tab {session.number(current)}: {current.page.url}" if current else "none (no tabs left)"
    out.notes.append(f"this tab closed itself; now on {where}")
    now = session.number(current) if current else None
    out.add("tabs", {"event": "this tab closed itself", "current": now})
