"""Snapshots of huge pages: what is in view, found by one query instead of the whole tree.

Playwright's ai snapshot takes time in proportion to the page: measured here
(Playwright 1.65, 2 cores shared with other work) the Python docs' os.html and
stdtypes.html (16,000-17,000 elements) took 0.7-1.2 s, a generated page of
links and buttons 6.4 s for 28,000 elements and 38 s for 100,000. Past
`FULL_SNAPSHOT_ELEMENTS`, `snapshot` therefore lists the headings and the
controls inside the viewport, found by one `querySelectorAll` (~100 ms for
100,000 nodes), each control held as an element handle under an `@c` ref (the
same kind of ref as `snapshot -C`: it cannot drift to another element). A note
at the top says so and how to see the rest. An action's view diff, which must
not outlast the action, stops earlier, at `HUGE_ELEMENTS`.
"""

from __future__ import annotations

from playwright.async_api import Page

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab

HUGE_ELEMENTS = 10_000  # an action's view diff: 14,000 already outlasted the default 5 s action timeout
# A snapshot has the navigation budget (30 s): real documents this big take a few seconds at most.
FULL_SNAPSHOT_ELEMENTS = 30_000
LIMIT = 300  # items listed at most: a viewport rarely holds more

_COUNT_JS = "() => document.getElementsByTagName('*').length"

_IN_VIEW_JS = script("in_view")


async def element_count(page: Page) -> int:
    return int(await page.evaluate(_COUNT_JS))


async def in_view(tab: Tab, elements: int) -> str:
    """The headings and controls in the viewport, controls with fresh `@c` refs; a note first."""
    found = await tab.page.evaluate_handle(_IN_VIEW_JS, LIMIT)
    try:
        described = await found.evaluate("items => items.map(i => [i.role, i.name, i.heading, i.level])")
        handles = await found.evaluate_handle("items => items.map(i => i.el)")
        properties = await handles.get_properties()
    finally:
        await found.dispose()
    controls = []
    for index, (role, name, heading, _) in enumerate(described):
        element = properties[str(index)].as_element() if str(index) in properties else None
        if element is not None and not heading:
            controls.append((index, element, str(role), str(name)))
    refs = tab.refs.give_clickables([(element, role, name) for _, element, role, name in controls])
    ref_at = {index: ref for (index, *_), ref in zip(controls, refs, strict=True)}
    for key, handle in properties.items():
        if int(key) not in ref_at:
            await handle.dispose()
    await handles.dispose()
    lines = [note(elements, len(described))]
    for index, (role, name, _, level) in enumerate(described):
        line = f'- {role} "{name}"' if name else f"- {role}"
        line += f" [level={level}]" if level else ""
        lines.append(f"{line} {ref_at[index]}" if index in ref_at else line)
    return "\n".join(lines)


def note(elements: int, listed: int) -> str:
    more = f" (the first {LIMIT})" if listed >= LIMIT else ""
    return (
        f"note: this page has {elements:,} elements, too many for a full accessibility snapshot in time, "
        f"so this lists the {listed} headings and controls in view{more}. "
        "See more with `browse scroll` then `browse snapshot`, or read a part with `browse text SEL`."
    )
