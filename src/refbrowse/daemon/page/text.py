"""A page's text as a person sees it: open shadow roots (slotted content where the slot puts it),
and the documents of iframes, each frame after the page.

`text`, `diff` and the reports read pages through here, so they read web
components the same way.
"""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

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
      if (!onPath.has(n)) { out.push(block ? '\\n' + n.innerText + '\\n' : n.innerText); return; }
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
ELEMENTS_TEXT_JS = f"""els => {{
  const deep = {_DEEP_TEXT_JS};
  const shown = els.filter(e => !e.checkVisibility || e.checkVisibility());
  return (shown.length ? shown : els).map(deep);
}}"""
_PAGE_TEXT_JS = f"() => ({_DEEP_TEXT_JS})(document.body || document.documentElement)"


def clean_text(text: str) -> str:
    """Trimmed lines, runs of blank lines collapsed to one."""
    lines = [line.strip() for line in text.replace("\xa0", " ").splitlines()]
    joined = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", joined).strip()


async def frame_text(frame: Frame) -> str:
    try:
        return str(await frame.evaluate(_PAGE_TEXT_JS) or "")
    except PlaywrightError:
        return ""  # a frame that went away while it was read


async def page_text(page: Page) -> str:
    """The page's text, then each frame's (a frame with no text is left out)."""
    parts = [clean_text(await frame_text(page.main_frame))]
    for frame in page.frames[1:]:
        text = clean_text(await frame_text(frame))
        if text:
            parts.append(f"--- frame {frame.name or frame.url}\n{text}")
    return "\n\n".join(parts)
