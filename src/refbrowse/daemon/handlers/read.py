"""Read: text, find, html, links. Everything here is page content, so fenced.

`text` reads what a person sees: open shadow roots (with slotted content where
the slot puts it) and the documents of iframes, each frame after the page.
`find` searches the same text through one whole-page snapshot, so each hit
comes with a ref.
"""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator

from refbrowse.daemon.envelope import fence
from refbrowse.daemon.handlers import Call, handler
from refbrowse.daemon.outputcap import capped
from refbrowse.daemon.pwerrors import translate
from refbrowse.daemon.refs import parse_ref
from refbrowse.daemon.resolver import evaluate_all, resolve
from refbrowse.daemon.snapshot.search import hit_lines, search
from refbrowse.daemon.snapshot.search import needle as find_needle
from refbrowse.daemon.snapshot.service import capture
from refbrowse.errors import UsageError

# Text of an element as innerText gives it, but through open shadow roots: a subtree with no
# shadow host inside is read with innerText at once; only the path to a host is walked.
_DEEP_TEXT_JS = """(top) => {
  const hosts = [];
  const find = root => {
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) { hosts.push(e); find(e.shadowRoot); }
  };
  find(top.shadowRoot || top);
  if (top.shadowRoot) hosts.push(top);
  // Slots show light-DOM children where the shadow root puts them: walk down to each one.
  for (const h of hosts.slice()) hosts.push(...h.shadowRoot.querySelectorAll('slot'));
  if (!hosts.length) return top.innerText ?? top.textContent ?? '';
  const up = n => n.assignedSlot || n.parentNode || n.host || null;
  const onPath = new Set();
  for (const h of hosts) for (let n = h; n && !onPath.has(n); n = up(n)) onPath.add(n);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
  const out = [];
  const walk = n => {
    if (n.nodeType === 3) { out.push(n.data.replace(/\\s+/g, ' ')); return; }
    if (n.nodeType !== 1 && n.nodeType !== 11) return;
    if (n.nodeType === 1) {
      if (SKIP.has(n.tagName)) return;
      const display = getComputedStyle(n).display;  // slots are display: contents, never "visible"
      if (display !== 'contents' && n.checkVisibility && !n.checkVisibility()) return;
      const block = display !== 'contents' && !display.startsWith('inline');
      // An SVG or MathML element has no innerText: an icon in a shadow root says its textContent
      const own = n.innerText ?? n.textContent ?? '';
      if (!onPath.has(n)) { out.push(block ? '\\n' + own + '\\n' : own); return; }
      if (block) out.push('\\n');
    }
    const kids = n.shadowRoot ? n.shadowRoot.childNodes
      : n.tagName === 'SLOT' ? (n.assignedNodes({flatten: true}).length ? n.assignedNodes({flatten: true})
      : n.childNodes) : n.childNodes;
    for (const k of kids) walk(k);
  };
  walk(top);
  return out.join('');
}"""
_TEXT_JS = f"""els => {{
  const deep = {_DEEP_TEXT_JS};
  const shown = els.filter(e => !e.checkVisibility || e.checkVisibility());
  return (shown.length ? shown : els).map(deep);
}}"""
_PAGE_TEXT_JS = f"() => ({_DEEP_TEXT_JS})(document.body || document.documentElement)"

_LINKS_JS = """() => Array.from(document.querySelectorAll('a[href], area[href]')).map(a => {
  const img = a.querySelector('img[alt]');
  const label = a.innerText || a.getAttribute('aria-label') || a.title || (img && img.alt) || '';
  return [label.replace(/\\s+/g, ' ').trim(), a.href];
})"""

FIND_LIMIT = 20


def clean_text(text: str) -> str:
    """Trimmed lines, runs of blank lines collapsed to one."""
    lines = [line.strip() for line in text.replace("\xa0", " ").splitlines()]
    joined = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", joined).strip()


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


async def _frame_text(frame: Frame) -> str:
    try:
        return str(await frame.evaluate(_PAGE_TEXT_JS) or "")
    except PlaywrightError:
        return ""  # a frame that went away while it was read


async def page_text(call: Call) -> str:
    """The page's text, then each frame's (a frame with no text is left out)."""
    parts = [clean_text(await _frame_text(call.page.main_frame))]
    for frame in call.page.frames[1:]:
        text = clean_text(await _frame_text(frame))
        if text:
            parts.append(f"--- frame {frame.name or frame.url}\n{text}")
    return "\n\n".join(parts)


async def element_text(call: Call, selector: str) -> str:
    locator = await resolve(call.tab, selector)
    frame = await _frame_of(locator, selector)
    if frame is not None:
        return clean_text(await _frame_text(frame))
    parts = await evaluate_all(locator, _TEXT_JS)
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
    found = await element_text(call, selector) if selector else await page_text(call)
    shown, note = capped("text", within_tokens(found, call.flags.get("--max-tokens")), call.flags)
    return fence(shown, call.page.url, call.raw) + note


@handler("find")
async def find(call: Call) -> str:
    needle = str(call.args[0])
    if not needle.strip():
        raise UsageError("find needs some text to look for", "for example: browse find timeout")
    try:
        wanted = find_needle(needle, bool(call.flags.get("--regex")))
    except re.error as exc:
        raise UsageError(
            f"--regex {needle!r} is not a valid pattern: {exc}",
            r"escape ( ) [ and the like with \\, or leave out --regex",
        ) from exc
    taken = await capture(call.tab)
    hits, total = search(taken.tree, wanted, call.flags.get("--limit") or FIND_LIMIT)
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
