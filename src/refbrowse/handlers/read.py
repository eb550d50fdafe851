"""Read: text, html, links, forms. Everything here is page content, so fenced."""

from __future__ import annotations

import re

from refbrowse.envelope import fence
from refbrowse.handlers import Call, handler
from refbrowse.resolver import evaluate_all, resolve

# Hidden matches are left out, unless every match is hidden.
_TEXT_JS = """els => {
  const shown = els.filter(e => !e.checkVisibility || e.checkVisibility());
  return (shown.length ? shown : els).map(e => e.innerText ?? e.textContent ?? '');
}"""
_PAGE_TEXT_JS = "() => document.body ? document.body.innerText : document.documentElement.textContent"

_LINKS_JS = """() => Array.from(document.querySelectorAll('a[href], area[href]')).map(a => {
  const img = a.querySelector('img[alt]');
  const label = a.innerText || a.getAttribute('aria-label') || a.title || (img && img.alt) || '';
  return [label.replace(/\\s+/g, ' ').trim(), a.href];
})"""


def clean_text(text: str) -> str:
    """Trimmed lines, runs of blank lines collapsed to one."""
    lines = [line.strip() for line in text.replace("\xa0", " ").splitlines()]
    joined = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", joined).strip()


@handler("text")
async def text(call: Call) -> str:
    selector = call.arg(0)
    if selector:
        parts = await evaluate_all(await resolve(call.tab, selector), _TEXT_JS)
        raw_text = "\n\n".join(str(part) for part in parts)
    else:
        raw_text = str(await call.page.evaluate(_PAGE_TEXT_JS) or "")
    return fence(clean_text(raw_text), call.page.url, call.raw)


@handler("html")
async def html(call: Call) -> str:
    selector = call.arg(0)
    if selector:
        parts = await evaluate_all(await resolve(call.tab, selector), "els => els.map(e => e.outerHTML)")
        markup = "\n".join(str(part) for part in parts)
    else:
        markup = await call.page.content()
    return fence(markup, call.page.url, call.raw)


@handler("links")
async def links(call: Call) -> str:
    pairs = await call.page.evaluate(_LINKS_JS)
    seen: set[tuple[str, str]] = set()
    lines = []
    for label, href in pairs:
        if (label, href) not in seen:
            seen.add((label, href))
            lines.append(f"{label or '(no text)'} → {href}")
    return fence("\n".join(lines) if lines else "(no links)", call.page.url, call.raw)
