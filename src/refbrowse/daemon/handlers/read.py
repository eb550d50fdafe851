"""Read: text, find, html, links. Everything here is page content, so fenced.

`text` reads what a person sees: open shadow roots (with slotted content where
the slot puts it) and the documents of iframes, each frame after the page.
`find` searches the same text through one whole-page snapshot, so each hit
comes with a ref.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.core.sessions.refs import parse_ref
from refbrowse.daemon.page.outputcap import capped
from refbrowse.daemon.page.resolver import evaluate_all, resolve
from refbrowse.daemon.page.snapshot import huge_page, prepared
from refbrowse.daemon.page.snapshot.hugefind import find_in_text
from refbrowse.daemon.page.snapshot.search import hit_lines, search
from refbrowse.daemon.page.snapshot.search import needle as find_needle
from refbrowse.daemon.page.snapshot.service import take_snapshot
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.text import ELEMENTS_TEXT_JS, clean_text, frame_text, page_text

_LINKS_JS = script("links")

FIND_LIMIT = 20


def within_tokens(text: str, max_tokens: int | None) -> str:
    """The first `max_tokens` (characters / 4) of `text`, cut at a line, with what was left out."""
    if max_tokens is None or len(text) <= max_tokens * 4:
        return text
    budget = max(max_tokens * 4 - 100, 0)  # room for the note
    cut = text.rfind("\n", 0, budget)
    kept = text[: cut if cut > budget // 2 else budget]
    note = (
        f"… {len(text) - len(kept)} more characters left out to stay under {max_tokens} tokens: "
        "`browse find TEXT` searches them"
    )
    return f"{kept.rstrip()}\n{note}"


async def element_text(call: Call, selector: str) -> str:
    locator = await resolve(call.tab, selector)
    frame = await _frame_of(locator, selector)
    if frame is not None:
        return clean_text(await frame_text(frame))
    parts = await evaluate_all(locator, ELEMENTS_TEXT_JS)
    return clean_text("\n\n".join(str(part) for part in parts))


async def _frame_of(locator: Locator, selector: str) -> Frame | None:
    """The document an iframe element shows, when `selector` names one iframe."""
    if parse_ref(selector) is None and await locator.count() != 1:
        return None
    try:
        handle = await locator.first.element_handle()
        try:
            return await handle.content_frame()
        finally:
            await handle.dispose()
    except PlaywrightError as exc:
        raise translate(exc, f"reading {selector}") from exc


@handler("text")
async def text(call: Call) -> str:
    selector = call.arg(0)
    found = await element_text(call, selector) if selector else await page_text(call.page)
    shown, note = capped("text", within_tokens(found, call.flag("--max-tokens")), call.flags)
    return fence(shown, call.page.url, call.raw) + note


@handler("find")
async def find(call: Call) -> str:
    needle = str(call.args[0])
    wanted = find_needle(needle, bool(call.flag("--regex")))  # the registry's check compiled it
    limit = call.flag("--limit") or FIND_LIMIT
    now = await prepared.look(call.tab)
    if now.elements > huge_page.FULL_SNAPSHOT_ELEMENTS:  # a whole snapshot would outlast the command
        hits, total = await find_in_text(call.tab, needle, bool(call.flag("--regex")), limit)
        said = f"note: this page has {now.elements:,} elements: searched its text, not a snapshot\n"
        return fence(said + "\n".join(hit_lines(hits, total, needle)), call.page.url, call.raw)
    # The reading a navigation prepared, else one with a snapshot's budget.
    reading = prepared.served(call.tab, now)
    taken = await take_snapshot(call.tab, reading=reading, timeout_ms=call.nav_timeout_ms)
    document, refs = taken.triage.document, call.tab.refs

    def mint(node: Node) -> str:
        return str(
            refs.give_found(document, node.pw_ref, node.aria_role or node.role, node.name, node.in_frame)
        )

    hits, total = search(taken.tree, wanted, limit, mint)
    return fence("\n".join(hit_lines(hits, total, needle)), call.page.url, call.raw)


@handler("html")
async def html(call: Call) -> str:
    selector = call.arg(0)
    if selector:
        parts = await evaluate_all(await resolve(call.tab, selector), "els => els.map(e => e.outerHTML)")
        markup = "\n".join(str(part) for part in parts)
    else:
        markup = await call.page.content()
    shown, note = capped("html", markup, call.flags)
    return fence(shown, call.page.url, call.raw) + note


@handler("links")
async def links(call: Call) -> str:
    pairs = await call.page.evaluate(_LINKS_JS)
    seen: set[tuple[str, str]] = set()
    lines = []
    for label, href in pairs:
        if (label, href) not in seen:
            seen.add((label, href))
            lines.append(f"{label or '(no text)'} → {href}")
    shown, note = capped("links", "\n".join(lines) if lines else "(no links)", call.flags)
    return fence(shown, call.page.url, call.raw) + note
