"""A small observer living in each page: DOM mutations, and the messages a page shows.

An action asks it, before and after, what the page says (alerts, status and
live regions, toasts, open dialogs, fields marked invalid) and how many DOM
mutations happened; `settle` asks it to wait until the DOM has been quiet for a
while, counted from the last input the browser dispatched, and learns from it
when the document asked to navigate away. Its listeners are passive and it
reaches into open shadow roots, where web components keep their content.

Timers and frames the page schedules are counted by `pagework`, whose script
the probe adopts: a wait can end a frame after the last of them.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, TypeVar

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page import pagework

# One look: a few bytes where the document has the probe already, else with the probe's source to
# install it (a second round trip, once per document).
_FAST_JS = script("probe_fast")
_CALL_JS = script("probe_call")

# The probe's stamp of the page (null when this document has no probe yet) and its element count.
LOOK_JS = script("look")
_RELEASE_JS = script("held_release")

ANSWER_MS = 2_000  # a page that takes longer to answer a look is busy (a script that does not yield)
T = TypeVar("T")


class PageBusy(Exception):
    """The page did not answer a look in time: its script is busy."""


async def answered(step: Awaitable[T], limit_ms: int = ANSWER_MS) -> T:
    """`step`'s value, or `PageBusy` when the page does not answer within `limit_ms`."""
    try:
        return await asyncio.wait_for(step, limit_ms / 1000)
    except TimeoutError as exc:
        raise PageBusy(f"the page did not answer for {limit_ms} ms") from exc


Message = tuple[str, str, str]  # (kind, label, text): "alert", "", "Saved" or "invalid", "Email", "…"
# `page_state.js`: [elements, visible text length, controls, loading indicators shown, a bare main
# panel (1 or 0), requests ended]
Shown = tuple[int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class PageReport:
    """What the page showed at one moment."""

    count: int  # DOM mutations seen since the probe was installed
    document: str  # performance.timeOrigin: a new value means a new document
    url: str
    messages: tuple[Message, ...]
    elements: int = 0  # elements in the document (its shadow roots not counted)
    stamp: str | None = None  # the probe's stamp (see `prepared`), when asked for
    shown: Shown | None = None  # the page's state (see `answering`), when asked for
    held: tuple[str, str] | None = None  # what the held element holds (`element_state`), when asked for


@dataclass(frozen=True, slots=True)
class Quiet:
    """How a wait for quiet ended: the ms waited, and the URL the document asked to leave for ("" if none)."""

    waited_ms: int
    leaving: str
    shown: Shown | None = None  # the page's state once quiet, when asked for
    empty: bool = False  # it ended on an empty document that nothing will fill (no script, loaded)
    report: PageReport | None = None  # what the page reported as the wait ended, when asked for


_ALSO = ("shown", "report", "held", "keep")  # `Also`'s fields, as `probe.js` reads them


class Probe:
    """The observer of one document of one tab.

    It lives under a per-daemon random, non-enumerable name on the page's
    window rather than behind a Playwright handle: a handle held while a look
    waits on a busy page makes Playwright report the page as navigating, and
    the tab guard could then not see that the page is stuck.
    """

    def __init__(self, tab: Tab) -> None:
        self.tab = tab

    async def _call(self, op: str, *args: object, also: Also | None = None) -> tuple[Any, dict[str, Any]]:
        """The probe's answer, and what `also` asked besides (see `probe_call.js`)."""
        asked = (also.shown, also.report, also.held, also.keep) if also else ()
        wanted = {name: value for name, value in zip(_ALSO, asked, strict=False) if value} or None
        payload = [_KEY, op, list(args), wanted]
        found = await self.tab.page.evaluate(_FAST_JS, payload)
        if found is None:
            found = await self.tab.page.evaluate(_CALL_JS, payload)
        return found[0], found[1]

    async def report(self, begin: bool = False, stamp: bool = False, also: Also | None = None) -> PageReport:
        op, args = ("begin", ()) if begin else ("report", (stamp,))
        raw, extra = await self._call(op, *args, also=also)
        return page_report(raw, extra)

    async def quiet(
        self,
        quiet_ms: int,
        limit_ms: int,
        floor_ms: int,
        need_content: bool,
        idle_ms: int | None = None,
        also: Also | None = None,
    ) -> Quiet:
        """Wait until no mutation for `quiet_ms` since the action began (and at least `floor_ms`
        from now), and, if asked, until the page shows something. With `idle_ms` and no floor, a
        page where nothing changed since the action began waits only that long. The wait counts
        from the action's last input too, and ends early when the document asks to navigate away.
        `also` asks for the page's state once quiet and the look at that moment (`Also`)."""
        args: list[object] = [quiet_ms, max(limit_ms, 0), floor_ms, need_content]
        idle = [idle_ms] if idle_ms is not None else []
        (waited, leaving, empty), extra = await self._call("quiet", *args, *idle, also=also)
        look = page_report(extra["report"], extra) if extra.get("report") else None
        return Quiet(int(waited), str(leaving), _shown(extra.get("shown")), bool(empty), look)

    def release(self, key: str) -> None:
        """Free the element held under `key` (a look that kept it has been used), in the background."""
        if not self.tab.page.is_closed():
            spawn(_release(self.tab, key))


@dataclass(frozen=True, slots=True)
class Also:
    """What a look takes besides the probe's answer, in the same call."""

    shown: bool = False  # the page's state (see `answering`)
    held: str | None = None  # the key an element is held under: what it holds now (the key is freed)
    report: bool = False  # the look with its stamp, as `report` gives it (for a wait: as it ends)
    keep: bool = False  # the held element stays held (a later look may read it again)


def _shown(raw: Any) -> Shown | None:
    return (int(raw[0]), int(raw[1]), int(raw[2]), int(raw[3]), int(raw[4]), int(raw[5])) if raw else None


def page_report(raw: dict[str, Any], extra: dict[str, Any] | None = None) -> PageReport:
    """A look's answer as a `PageReport` (`extra`: what `Also` asked for)."""
    extra = extra or {}
    held = extra.get("held")
    return PageReport(
        int(raw["count"]),
        str(raw["document"]),
        str(raw["url"]),
        tuple((str(k), str(label), str(text)) for k, label, text in raw["messages"]),
        int(raw["elements"]),
        str(raw["stamp"]) if raw.get("stamp") is not None else None,
        _shown(extra.get("shown")),
        (str(held[0]), str(held[1])) if held else None,
    )


_KEY = "__refbrowse_probe_" + secrets.token_hex(6)


class DocumentStartCounting:
    """Each new document of a session counts its work from its start (see `pagework`), so the
    first wait after a navigation can end as soon as that work has run."""

    async def on_new_session(self, session: Session) -> None:
        await session.context.add_init_script(pagework.from_document_start(_KEY + "_work"))


async def _release(tab: Tab, key: str) -> None:
    with suppress(PlaywrightError):  # the page went meanwhile: so did what it held
        await tab.page.evaluate(_RELEASE_JS, key)


def probe_key() -> str:
    """The name the probe lives under in every page of this daemon."""
    return _KEY


async def observe(
    tab: Tab, begin: bool = False, stamp: bool = False, also: Also | None = None
) -> tuple[Probe, PageReport] | None:
    """The probe of the tab's current document and what it reports now (with its stamp, and what
    `also` asks, if asked); None if the page is gone."""
    if tab.page.is_closed():
        return None
    probe = Probe(tab)
    try:
        return probe, await probe.report(begin, stamp, also)
    except PlaywrightError:
        return None  # the page is navigating or closing: there is nothing to observe yet
