"""Snapshot: the page as the agent reads it, with refs to act on."""

from __future__ import annotations

from refbrowse.envelope import fence
from refbrowse.errors import UsageError
from refbrowse.handlers import Call, handler
from refbrowse.snapshot.render import RenderOptions, diff, render
from refbrowse.snapshot.service import capture, scope


def positive(call: Call, flag: str) -> int | None:
    """The number a flag such as `-d 3` carries, or None when it was not given."""
    raw = call.flags.get(flag)
    if raw is None or raw is False:
        return None
    try:
        value = int(str(raw))
    except ValueError:
        value = 0
    if value <= 0:
        raise UsageError(f"{flag} takes a positive whole number, got {raw!r}", f"for example: {flag} 3")
    return value


@handler("snapshot")
async def snapshot(call: Call) -> str:
    options = RenderOptions(
        interactive=bool(call.flags.get("-i")),
        compact=bool(call.flags.get("-c")),
        depth=positive(call, "-d"),
        max_tokens=positive(call, "--max-tokens"),
        show_url=call.raw,
    )
    taken = await capture(call.tab, clickables=bool(call.flags.get("-C")))
    selector = call.flags.get("-s")
    roots = await scope(call.tab, taken, str(selector)) if isinstance(selector, str) else None
    text = render(taken, options, roots)
    # -D compares like with like: the previous snapshot taken with the same view flags.
    kind = " ".join(f"{flag}={call.flags.get(flag)}" for flag in ("-i", "-c", "-d", "-s", "-C"))
    kind += f" raw={call.raw}"  # --raw adds the url line, which is not a change in the page
    previous = call.tab.refs.last_text.get(kind)
    call.tab.refs.last_text[kind] = text
    return fence(diff(previous, text) if call.flags.get("-D") else text, call.page.url, call.raw)
