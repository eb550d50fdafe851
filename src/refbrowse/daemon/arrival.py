"""The page an action arrived at: its interactive view, printed in the action's report.

After an action lands on a new document (`goto`, `back`, a click on a link,
a form post…) an agent's next call is nearly always `snapshot -i`. So the
report carries that view, refs included, and the call is saved. The view is
exactly what `snapshot -i` would print, refs numbered the same way, and it
becomes that tab's previous `snapshot -i` for `-D`. A page whose view is
longer than `ARRIVAL_TOKENS` is cut to that budget the way `--max-tokens`
cuts it (what is in view first), with a note saying what was left out; a
huge page gets one line instead. Reading the page here replaces the reading
that would otherwise be prepared in the background for the next `snapshot`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from refbrowse.daemon import trace
from refbrowse.daemon.snapshot.budget import LEFT_OUT
from refbrowse.daemon.snapshot.data import snapshot_data
from refbrowse.daemon.snapshot.render import RenderOptions, render
from refbrowse.daemon.snapshot.service import PageSnapshot, capture, history_kind
from refbrowse.errors import BrowseError

if TYPE_CHECKING:
    from refbrowse.daemon.handlers import Call
    from refbrowse.daemon.session import Tab
    from refbrowse.daemon.snapshot.prepared import Reading

# About 4,000 characters: a login form, a search page or an admin form fits whole;
# a long page shows what is in view first.
ARRIVAL_TOKENS = 1_000
INTERACTIVE_FLAGS: dict[str, object] = {"-i": True}


@dataclass(frozen=True, slots=True)
class Arrival:
    """The arrived page as the report shows it: the view (page content) or our own note why not."""

    view: str = ""
    note: str = ""
    data: dict[str, object] | None = None
    whole: bool = False  # the view was not cut to the budget


async def look(
    call: Call, tab: Tab, elements: int, huge_after: int, reading: Reading | None = None
) -> Arrival:
    """The arrived page's interactive view (from `reading`, a reading of the page as it is now,
    if given), or a line saying why there is none."""
    if elements > huge_after:
        return Arrival(
            note=f"(a big page: {elements} elements; `browse snapshot -i --max-tokens N` lists refs)"
        )
    try:
        taken = await trace.timed(
            "arrival view", capture(tab, reading=reading, timeout_ms=call.nav_timeout_ms)
        )
    except BrowseError:
        return Arrival(note="(the new page could not be read yet: run `browse snapshot -i`)")
    return shown(call, tab, taken)


def shown(call: Call, tab: Tab, taken: PageSnapshot) -> Arrival:
    """The view of `taken` cut to the report's budget; it becomes the tab's previous `snapshot -i`."""
    text = render(taken, RenderOptions(interactive=True, max_tokens=ARRIVAL_TOKENS, show_url=call.raw))
    history = call.services.snapshot_history.of(tab)
    history.swap(history_kind(INTERACTIVE_FLAGS, call.raw), taken.triage.document, text)
    return Arrival(text, "", snapshot_data(taken, text), whole=not _cut(text))


def _cut(text: str) -> bool:
    """Whether the budget cut the view: its note is the line before the token count.

    Page lines are indented `- …` lines, so a line opening with `… ` is ours.
    """
    lines = text.splitlines()
    return len(lines) >= 2 and lines[-2].startswith("… ") and LEFT_OUT in lines[-2]
