"""Snapshot: the page as the agent reads it, with refs to act on.

The one `snapshot` handler: the view flags (`-i -c -d -s -C --max-tokens`),
the diff against the previous snapshot of the same tab (`-D`), and the
annotated screenshot (`-a`, `-o PATH`) all start from the same capture.
"""

from __future__ import annotations

from refbrowse.daemon import trace
from refbrowse.daemon.envelope import fence
from refbrowse.daemon.handlers import Answer, Call, handler
from refbrowse.daemon.handlers.annotate import annotate, wanted
from refbrowse.daemon.snapshot import huge, prepared
from refbrowse.daemon.snapshot.data import snapshot_data
from refbrowse.daemon.snapshot.render import RenderOptions, diff, render
from refbrowse.daemon.snapshot.service import capture, history_kind, scope, scope_clickables

# Without --max-tokens a snapshot still stops near this many tokens (~100 KB).
DEFAULT_MAX_TOKENS = 25_000
# …and a whole page's `-i`, near this many, as an action's report does (twice its budget): what is
# in view and actionable first, then a note says how to see more.
INTERACTIVE_MAX_TOKENS = 2_000


def default_budget(call: Call) -> int:
    """The budget when --max-tokens is not given: small for a whole page's `-i`, else a ceiling."""
    whole_interactive = call.flags.get("-i") and call.flags.get("-s") is None and not call.flags.get("-D")
    return INTERACTIVE_MAX_TOKENS if whole_interactive else DEFAULT_MAX_TOKENS


def options(call: Call) -> RenderOptions:
    return RenderOptions(
        interactive=bool(call.flags.get("-i")),
        compact=bool(call.flags.get("-c")),
        depth=call.flags.get("-d"),
        max_tokens=call.flags.get("--max-tokens") or default_budget(call),
        show_url=call.raw,
    )


@handler("snapshot")
async def snapshot(call: Call) -> str:
    selector = call.flags.get("-s")
    now = await prepared.look(call.tab)
    if selector is None and now.elements > huge.FULL_SNAPSHOT_ELEMENTS:
        return fence(await huge.in_view(call.tab, now.elements), call.page.url, call.raw)
    clickables = bool(call.flags.get("-C"))
    reading = prepared.served(call.tab, now)
    trace.note("snapshot: prepared reading served" if reading else "snapshot: page read now")
    # A big page's snapshot gets the navigation budget, not an action's (5 s ran out on a loaded machine).
    unnamed = bool(call.flags.get("--all"))
    taken = await capture(
        call.tab, clickables=clickables, unnamed=unnamed, reading=reading, timeout_ms=call.nav_timeout_ms
    )
    roots = None
    if isinstance(selector, str):
        roots = await scope(call.tab, taken, selector)
        taken = await scope_clickables(call.tab, taken, selector) if clickables else taken
    text = render(taken, options(call), roots)
    # -D compares like with like: the previous snapshot taken with the same view flags.
    kind = history_kind(call.flags, call.raw)
    previous = call.services.snapshot_history.of(call.tab).swap(kind, taken.triage.document, text)
    shown = diff(previous, taken.triage.document, text) if call.flags.get("-D") else text
    fenced = fence(shown, call.page.url, call.raw)
    budget = default_budget(call)
    if call.flags.get("--max-tokens") is None and f"to stay under {budget} tokens" in text:
        fenced += f"\n(this snapshot stops at {budget} tokens by default: `--max-tokens N` allows more)"
    if wanted(call):
        fenced = f"{fenced}\n{await annotate(call, taken)}"
    return Answer(fenced, snapshot_data(taken, shown)) if call.json else fenced
