"""Settling on until the page has answered, not only gone quiet for a moment.

`settle` ends when the DOM and the action's requests have been quiet for a
while. Two kinds of page are quiet before they have answered: an app shell
that paints after `load` (its view is still all but empty while its document
grows, or shows its header and menus over a main panel with nothing in it yet,
while it fetches what goes there), and a page that shows a loading indicator the action brought up (a
`role=progressbar`, `aria-busy`, a "Loading…" text) while a fetch runs. For
those, `until_answered` looks again every `_STEP_MS` until the view has
something in it and has stopped growing, or the indicator is gone, up to a
cap (a longer one while the page is still changing: a slow boot is waited
out, a stuck page is not); it says whether the cap was hit, and the report says so.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.page.pageprobe import Shown

CAP_MS = 4_000  # the longest an action waits beyond its settle for a page that has stopped changing
AT_WORK_CAP_MS = 10_000  # …and for one still at work: a change in the last `_AT_WORK_MS` (a slow boot)
_AT_WORK_MS = 1_000
# A page that asked its server over a socket may show that the server is at work (Streamlit's "Running...")
# only this long after asking: the look for a loading indicator waits for it.
BUSY_SIGN_MS = 800
_STEP_MS = 150
_GROWN_MS = 600  # an empty document unchanged this long has stopped growing
_LOOK_LIMIT_S = 1.0
_STILL_MS = 1_500  # a new document unchanged this long shows what it will (an indicator is part of it)
_EMPTY_TEXT = 20  # characters of visible text under which a view is (nearly) empty
_EMPTY_CONTROLS = 2  # …with fewer controls than this

# [elements, visible text length, controls, loading indicators shown, a shown main panel that is
# bare, requests ended]. Indicators are counted, so that one the page shows all the time is not
# taken for one the action brought up.
_LOOK_JS = script("page_state")


@dataclass(frozen=True, slots=True)
class PageLook:
    elements: int
    text: int
    controls: int
    loading: int
    bare_main: int  # 1: a main landmark laid out with nothing in it (no text, control or picture)
    fetched: int  # the page's requests that have ended (its resource timing entries)

    @property
    def empty(self) -> bool:
        return self.text < _EMPTY_TEXT and self.controls < _EMPTY_CONTROLS


def _unfinished(state: PageLook, before: PageLook | None) -> bool:
    """Nothing to show yet: an empty view, or a new document's shell whose main panel is bare
    (its header and menus drawn, what goes in the middle still being fetched)."""
    return state.empty or (before is None and bool(state.bare_main))


async def busy_sign_due(spoke_at: float) -> bool:
    """Until `BUSY_SIGN_MS` after the page last asked its server over a socket (`spoke_at`,
    time.monotonic()): a socket app shows that its server is at work only after a moment (Streamlit).
    Whether it waited."""
    due = spoke_at + BUSY_SIGN_MS / 1000 - time.monotonic()
    if due > 0:
        await asyncio.sleep(due)
    return due > 0


def state_of(shown: Shown | None) -> PageLook | None:
    """A look's `page_state` as a `PageLook` (None when the look did not take it)."""
    return PageLook(*shown) if shown is not None else None


# A page that did not answer a look in time: busy in its own script (a large app compiling its
# code on a first visit): it is still working, so it never counts as still.
_BUSY = PageLook(-1, 0, 0, 0, 0, 0)


async def look(page: Page) -> PageLook | None:
    """The page's size and loading indicators now; None if it cannot say (closed, navigating, busy)."""
    state = await _look(page)
    return None if state is _BUSY else state


async def _look(page: Page) -> PageLook | None:
    try:
        found = await asyncio.wait_for(page.evaluate(_LOOK_JS), _LOOK_LIMIT_S)
    except TimeoutError:
        return _BUSY
    except PlaywrightError:
        return None
    return PageLook(*(int(value) for value in found))


def _gone(state: PageLook | None, before: PageLook | None) -> bool:
    """Nothing more to wait for: the page cannot be looked at, or is busy after an action on the
    same document (a page stuck in its own script is the tab guard's business, not ours)."""
    return state is None or (state is _BUSY and before is not None)


def waits(page: Page, before: PageLook | None, now: PageLook | None) -> bool:
    """Whether `until_answered` would look at the page again: not when `now` shows it answered."""
    if not page.url.startswith(("http:", "https:", "file:")):
        return False
    if now is None:
        return True
    loading_before = before.loading if before else 0
    return not _gone(now, before) and (_unfinished(now, before) or now.loading > loading_before)


async def until_answered(page: Page, before: PageLook | None, now: PageLook | None = None) -> str:
    """Wait while the view is empty and growing, or shows more loading indicators than `before`.

    Without `before` (a new document), an indicator that stays while nothing else on the page
    changes for `_STILL_MS` is taken for part of the page. `now` is the page's state if a look
    that just ended took it. Returns our note when the cap was hit.
    """
    if not page.url.startswith(("http:", "https:", "file:")):
        return ""
    loading_before = before.loading if before else 0
    started = time.monotonic()
    still_since = started
    last = now or await _look(page)
    while last is not None and not _gone(last, before):
        if not (_unfinished(last, before) or last.loading > loading_before):
            return ""
        if _capped(_since(started), _since(still_since)):
            return _cap_note(last, loading_before, _since(started))
        await asyncio.sleep(_STEP_MS / 1000)
        now = await _look(page)
        if now is None or _gone(now, before):
            return ""
        if _changed(now, last):
            still_since = time.monotonic()
        elif _still_long_enough(now, before, _since(still_since)):
            return ""
        last = now
    return ""


def _changed(now: PageLook, last: PageLook) -> bool:
    """The page is at work: an element or text came or went, a request of its ended, or it was too
    busy to be looked at."""
    return now is _BUSY or (now.elements, now.text, now.fetched) != (last.elements, last.text, last.fetched)


def _still_long_enough(now: PageLook, before: PageLook | None, still_s: float) -> bool:
    """Unchanged this long, the page shows what it will.

    After an action on the same document, an empty view that stopped growing is its answer. A new
    document waits longer: a large app's scripts may compile for a second on a first visit, and its
    fetches take a while once its shell is drawn; an empty view, a bare main panel or an indicator
    that stays while nothing changes is then how the page is.
    """
    if before is None:
        return still_s >= _STILL_MS / 1000
    return now.empty and now.loading <= before.loading and still_s >= _GROWN_MS / 1000


def _capped(waited_s: float, still_s: float) -> bool:
    """Waited long enough: past the cap, and past the longer one too unless the page changed just now
    (a large app booting on a loaded machine keeps drawing and fetching; a stuck one does not)."""
    if waited_s < CAP_MS / 1000:
        return False
    return waited_s >= AT_WORK_CAP_MS / 1000 or still_s >= _AT_WORK_MS / 1000


def _since(moment: float) -> float:
    return time.monotonic() - moment


def _cap_note(state: PageLook, loading_before: int, waited_s: float) -> str:
    seconds = f"{waited_s:.0f}"
    if state.loading > loading_before:
        what = "still shows a loading indicator"
    else:
        what = "was still nearly empty" if state.empty else "still had nothing in its main panel"
    return f"the page {what} after waiting {seconds} s more (the cap): `browse wait --idle` waits on"
