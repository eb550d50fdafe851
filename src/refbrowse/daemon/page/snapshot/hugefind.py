"""`find` on a huge page: one text search in the page instead of a whole-page snapshot.

Past `huge.FULL_SNAPSHOT_ELEMENTS`, an ai snapshot outlasts any command's
budget (a 50,000-element page took over 30 s here) and keeps the renderer busy
after the command has given up. So, as `snapshot` lists what is in view, `find`
walks the page's text nodes once (~100 ms for 100,000 nodes) and names the
control or heading each hit sits in; controls get `@c` refs, held as element
handles, like `snapshot -C`.
"""

from __future__ import annotations

from refbrowse.daemon.core.tab import Tab
from refbrowse.daemon.page.snapshot.search import Hit

_FIND_JS = """([source, isRegex, limit]) => {
  const pattern = new RegExp(isRegex ? source : source.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&'), 'i');
  const HOLDERS = 'a[href], button, input, select, textarea, summary, label, [role=button], [role=link], '
    + '[role=tab], [role=menuitem], [role=option], h1, h2, h3, h4, h5, h6, [role=heading]';
  const hits = [];
  let total = 0;
  const root = document.body || document.documentElement;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue || '';
    const match = pattern.exec(text);
    if (!match || !node.parentElement || node.parentElement.closest('script, style, noscript')) continue;
    total++;
    if (hits.length >= limit) continue;
    const holder = node.parentElement.closest(HOLDERS);
    const start = Math.max(0, match.index - 60);
    const end = Math.min(text.length, match.index + match[0].length + 60);
    const heading = !!holder && holder.matches('h1, h2, h3, h4, h5, h6, [role=heading]');
    const name = holder ? (holder.getAttribute('aria-label') || holder.innerText || holder.value || '') : '';
    hits.push({el: heading ? null : holder, heading, role: holder ? (holder.getAttribute('role')
      || (heading ? 'heading' : holder.tagName.toLowerCase())) : '',
      name: name.replace(/\\s+/g, ' ').trim().slice(0, 50),
      excerpt: (start ? '…' : '') + text.slice(start, end).replace(/\\s+/g, ' ').trim()
        + (end < text.length ? '…' : '')});
  }
  return {hits, total};
}"""


async def find_in_text(tab: Tab, needle: str, is_regex: bool, limit: int) -> tuple[list[Hit], int]:
    """At most `limit` hits of `needle` in the page's text, and how many there were in all."""
    found = await tab.page.evaluate_handle(_FIND_JS, [needle, is_regex, limit])
    try:
        described = await found.evaluate(
            "f => [f.total, f.hits.map(h => [h.role, h.name, h.heading, h.excerpt, !!h.el])]"
        )
        properties = await (await found.evaluate_handle("f => f.hits.map(h => h.el)")).get_properties()
    finally:
        await found.dispose()
    total, items = int(described[0]), described[1]
    held = [(i, properties[str(i)].as_element()) for i, item in enumerate(items) if item[4]]
    elements = [(i, element) for i, element in held if element is not None]
    refs = tab.refs.give_clickables(
        [(element, str(items[i][0]), str(items[i][1])) for i, element in elements]
    )
    ref_at = {i: str(ref) for (i, _), ref in zip(elements, refs, strict=True)}
    hits = []
    for i, (role, name, heading, excerpt, _) in enumerate(items):
        where = f'{"under " if heading else ""}{role} "{name}"' if role and name else str(role)
        hits.append(Hit(ref_at.get(i, ""), where, str(excerpt)))
    return hits, total
