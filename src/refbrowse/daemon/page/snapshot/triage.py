"""Page triage: what kind of page this is and what blocks it, in one evaluate.

The evaluate (`scripts/triage.js`) also brings what the snapshot needs from the
page itself: the document's identity (`performance.timeOrigin`), the viewport,
the values of password fields (so the snapshot can hide them, frames
included), DOM facts keyed by box (`marks`) and the text of messages. Captchas
mostly live in cross-origin iframes, so their detection also looks at the URLs
of `page.frames`.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.page.pageprobe import probe_key
from refbrowse.daemon.page.snapshot.reach import Reached, reached

Box = tuple[int, int, int, int]
_FRAME_LIMIT = 21  # the main frame and 20 others: pages full of ad frames stay quick

_CAPTCHA_FRAME = re.compile(r"recaptcha|hcaptcha\.com|challenges\.cloudflare\.com|turnstile|captcha", re.I)


@dataclass(frozen=True, slots=True)
class Overlay:
    kind: str  # "modal dialog", "cookie banner" or "full-screen layer"
    label: str
    box: tuple[float, float, float, float]
    controls: frozenset[tuple[int, int, int, int]]  # boxes of the controls inside it


@dataclass(frozen=True, slots=True)
class Triage:
    title: str
    url: str
    document: str  # performance.timeOrigin of the main document
    viewport: tuple[int, int]
    page_type: str
    login_form: bool
    captcha: bool
    forms: int
    overlays: tuple[Overlay, ...]
    passwords: frozenset[str]
    marks: dict[Box, tuple[frozenset[str], str]]  # box → (flags such as "required", a note)
    messages: frozenset[str]  # text of alerts, toasts, banners and error messages
    blank: bool = False  # nothing in the document: its ai snapshot is empty
    fields: int = 0  # inputs, selects and text areas, shadow roots included, in a form or not
    reach: tuple[Reached, ...] = ()  # what a person could act on that the tree may not call a control
    scrolled: int = 0  # pixels the window is scrolled down: a fragment's page, or one scrolled
    scheme: str = ""  # "dark" or "light": the background a person sees behind the middle of the window

    def summary(self) -> str:
        """`page: login · login form present · forms: 1`: what is absent goes unsaid (it is every page).
        Fields none of which is in a `<form>` (the way of many script-built apps) are counted apart:
        `forms: 0` alone would say there is nothing to fill in."""
        parts = [f"page: {self.page_type}"]
        parts += ["login form present"] if self.login_form else []
        parts += ["captcha present"] if self.captcha else []
        parts += [f"forms: {self.forms}"]
        parts += [f"fields: {self.fields}"] if self.fields and not self.forms else []
        return " · ".join(parts)


_STAMPED_TRIAGE_FAST_JS = script("stamped_triage_fast")  # where the document has the probe already
_STAMPED_TRIAGE_JS = script("stamped_triage")


async def triage(page: Page) -> Triage:
    return (await stamped_triage(page))[0]


async def stamped_triage(page: Page) -> tuple[Triage, str | None]:
    """The triage, and the probe's stamp of the page at that moment (None without a probe)."""
    found: dict[str, Any] | None = await page.evaluate(_STAMPED_TRIAGE_FAST_JS, [probe_key(), 0])
    if found is None:
        found = await page.evaluate(_STAMPED_TRIAGE_JS, probe_key())
    return await _stamped(page, found)


async def stamped_triage_within(page: Page, limit: int) -> tuple[Triage, str] | str:
    """`stamped_triage` in one round trip where the document has the probe and at most `limit`
    elements; else why not: "no probe" (the probe's own look installs it) or "too big"."""
    found: dict[str, Any] | None = await page.evaluate(_STAMPED_TRIAGE_FAST_JS, [probe_key(), limit])
    if found is None:
        return "no probe"
    if "facts" not in found:
        return "too big"
    facts, stamp = await _stamped(page, found)
    return (facts, stamp) if stamp is not None else "no probe"


async def _stamped(page: Page, found: dict[str, Any]) -> tuple[Triage, str | None]:
    facts: dict[str, Any] = found["facts"]
    blank = bool(found.get("blank")) and len(page.frames) == 1
    frame_captcha = any(_CAPTCHA_FRAME.search(frame.url) for frame in page.frames[1:])
    passwords = {str(p) for p in facts["passwords"]} | await _frame_passwords(page)
    return Triage(
        title=str(facts["title"]),
        url=str(facts["url"]),
        document=str(facts["timeOrigin"]),
        viewport=(int(facts["viewport"][0]), int(facts["viewport"][1])),
        scrolled=int(facts.get("scrolled") or 0),
        scheme=str(facts.get("scheme") or ""),
        page_type=page_type(facts),
        login_form=bool(facts["loginForm"]),
        captcha=bool(facts["captchaInPage"]) or frame_captcha,
        forms=int(facts["forms"]),
        overlays=tuple(_overlay(o) for o in facts["overlays"]),
        passwords=frozenset(passwords),
        marks=_marks(facts["marks"]),
        messages=frozenset(str(m) for m in facts["messages"]),
        blank=blank,
        fields=int(facts["fields"]),
        reach=tuple(reached(each) for each in facts.get("reach", ())),
    ), (str(found["stamp"]) if found["stamp"] is not None else None)


async def _frame_passwords(page: Page) -> set[str]:
    frames = page.frames[1:_FRAME_LIMIT]
    found = await asyncio.gather(*(_passwords_in(frame) for frame in frames))
    return {value for values in found for value in values}


async def _passwords_in(frame: Frame) -> list[str]:
    try:
        return [str(value) for value in await frame.evaluate(script("frame_passwords"))]
    except PlaywrightError:
        return []  # a frame that went away, or one still loading: nothing to hide there yet


def _marks(found: list[Any]) -> dict[Box, tuple[frozenset[str], str]]:
    out: dict[Box, tuple[frozenset[str], str]] = {}
    for (x, y, w, h), flags, note in found:
        out[(int(x), int(y), int(w), int(h))] = (frozenset(str(flags).split()), str(note))
    return out


def _overlay(found: dict[str, Any]) -> Overlay:
    x, y, w, h = found["box"]
    controls = frozenset((int(a), int(b), int(c), int(d)) for a, b, c, d in found["controls"])
    return Overlay(str(found["kind"]), str(found["label"]), (x, y, w, h), controls)


def page_type(facts: dict[str, Any]) -> str:
    """The first kind that fits: error, login, search results, article, form, listing, other."""
    if facts["errorHint"] and facts["textLength"] < 3000:
        return "error"
    if facts["loginForm"] and facts["fields"] <= 6:
        return "login"
    if facts["searchSays"]:
        return "search results"
    if (facts["articles"] >= 1 and facts["paragraphs"] >= 2) or facts["paragraphs"] >= 5:
        return "article"
    if facts["fields"] >= 2:
        return "form"
    if facts["links"] >= 20:
        return "listing"
    return "other"
