"""`find` on a huge page: one text search in the page instead of a whole-page snapshot.

Past `huge.FULL_SNAPSHOT_ELEMENTS`, an ai snapshot outlasts any command's
budget (a 50,000-element page took over 30 s here) and keeps the renderer busy
after the command has given up. So, as `snapshot` lists what is in view, `find`
walks the page's text nodes once (~100 ms for 100,000 nodes) and names the
control or heading each hit sits in; controls get `@c` refs, held as element
handles, like `snapshot -C`.
"""

from __future__ import annotations

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.snapshot.search import Hit

_FIND_JS = script("find_in_text")


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
