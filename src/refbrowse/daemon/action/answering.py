"""Settling on until the page has answered, not only gone quiet for a moment.

`settle` ends when the DOM and the action's requests have been quiet for a
while. Two kinds of page are quiet before they have answered: an app shell
that paints after `load` (its view is still all but empty while its document
grows), and a page that shows a loading indicator the action brought up (a
`role=progressbar`, `aria-busy`, a "Loading…" text) while a fetch runs. For
those, `until_answered` looks again every `_STEP_MS` until the view has
something in it and has stopped growing, or the indicator is gone, up to a
cap; it says whether the cap was hit, and the report says so.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.scripts import script
from refbrowse.daemon.page.pageprobe import Shown

CAP_MS = 4_000  # the longest an action waits beyond its settle for the page to answer
_STEP_MS = 150
_GROWN_MS = 600  # an empty document unchanged this long has stopped growing
_LOOK_LIMIT_S = 1.0
_STILL_MS = 1_500  # a new document's indicator that stays this long, nothing else changing, is part of it
_EMPTY_TEXT = 20  # characters of visible text under which a view is (nearly) empty
_EMPTY_CONTROLS = 2  # …with fewer controls than this

# [elements, visible text length, controls, loading indicators shown]. Indicators are counted, so that
# one the page shows all the time is not taken for one the action brought up.
_LOOK_JS = script("page_state")


@dataclass(frozen=True, slots=True)
class PageState:
    elements: int
    text: int
    controls: int
    loading: int

    @property
    def empty(self) -> bool:
        return self.text < _EMPTY_TEXT and self.controls < _EMPTY_CONTROLS


def state_of(shown: Shown | None) -> PageState | None:
    """A look's `page_state` as a `PageState` (None when the look did not take it)."""
    return PageState(*shown) if shown is not None else None


async def look(page: Page) -> PageState | None:
    """The page's size and loading indicators now; None if it cannot say (closed, navigating)."""
    try:
        found = await asyncio.wait_for(page.evaluate(_LOOK_JS), _LOOK_LIMIT_S)
    except (PlaywrightError, TimeoutError):
        return None  # a page busy in its own script is the tab guard's business, not ours
    return PageState(*(int(value) for value in found))


async def until_answered(page: Page, before: PageState | None, now: PageState | None = None) -> str:
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
    last = now or await look(page)
    while last is not None and (last.empty or last.loading > loading_before):
        if time.monotonic() - started >= CAP_MS / 1000:
            return _cap_note(last, loading_before)
        await asyncio.sleep(_STEP_MS / 1000)
        now = await look(page)
        if now is None:
            return ""
        if (now.elements, now.text) != (last.elements, last.text):
            still_since = time.monotonic()
        elif now.empty and now.loading <= loading_before and _since(still_since) >= _GROWN_MS / 1000:
            return ""  # empty, and no longer growing: that is its answer
        elif before is None and _since(still_since) >= _STILL_MS / 1000:
            return ""
        last = now
    return ""


def _since(moment: float) -> float:
    return time.monotonic() - moment


def _cap_note(state: PageState, loading_before: int) -> str:
    seconds = f"{CAP_MS / 1000:g}"
    what = "still shows a loading indicator" if state.loading > loading_before else "was still nearly empty"
    return f"the page {what} after waiting {seconds} s more (the cap): `browse wait --idle` waits on"
