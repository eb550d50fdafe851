"""What covers an element a pointer action was refused for: the page's blocking overlay, by name and ref.

A welcome tour or a consent dialog that opens a moment after the page loaded
is in no report yet when the agent's next click meets it. The refusal then
reads the page again (its refs given, as `snapshot -i` gives them) and says in
one line which overlay blocks, its ref, and the control that closes it.
"""

from __future__ import annotations

import json
import re

from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.snapshot.render import overlay_nodes
from refbrowse.daemon.page.snapshot.roles import actionable, shorten
from refbrowse.daemon.page.snapshot.service import take_snapshot
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.snapshot.triage import Overlay
from refbrowse.errors import BrowseError, PageError

READ_MS = 3_000  # the read of the page for the refusal: the action has failed already, it must not wait long
# the words of a control that dismisses a dialog ("No, do not enable notifications", "Not now", "×")
_CLOSES = re.compile(r"^(close|dismiss|cancel|skip|no\b|not now|later|got it|ok\b|x$|×|✕)", re.I)


async def overlay_refusal(
    tab: Tab, selector: str, point: tuple[float, float], cover: str
) -> PageError | None:
    """The refusal of an action on `selector`, covered at `point` by the element `cover` describes
    (`div#backdrop`), that names the blocking overlay there; None when the page names none (the
    caller's plainer refusal stands)."""
    try:
        taken = await take_snapshot(tab, timeout_ms=READ_MS)
    except BrowseError:
        return None
    overlay = next((o for o in taken.triage.overlays if _over(o, point)), None)
    if overlay is None:
        return None
    roots = overlay_nodes(taken.tree, overlay)
    controls = [n for root in roots for n in root.walk() if actionable(n) and n.short_ref]
    own = f" {roots[0].short_ref}" if len(roots) == 1 and roots[0].short_ref else ""
    label = f" {_quoted(overlay.label)}" if overlay.label else ""
    return PageError(
        f"{selector} is covered by another element: {cover}, of the {overlay.kind}{label}{own}",
        _how_to_close(controls),
    )


def _over(overlay: Overlay, point: tuple[float, float]) -> bool:
    """Whether the overlay takes a click at `point`: a banner where it is; a modal dialog or a
    full-screen layer anywhere (the page behind it is shaded or inert)."""
    if overlay.kind != "cookie banner":
        return True
    x, y, width, height = overlay.box
    return x <= point[0] <= x + width and y <= point[1] <= y + height


def _how_to_close(controls: list[Node]) -> str:
    closing = next((n for n in controls if _CLOSES.match(n.name.strip())), None)
    if closing is not None:
        first = f"close that overlay first: `browse click {closing.short_ref}` ({_quoted(closing.name)})"
    else:
        first = "close that overlay first: `browse press Escape`"
    others = [f"{_quoted(n.name)} {n.short_ref}" for n in controls if n is not closing and n.name][:3]
    return first + (f"; its other controls: {', '.join(others)}" if others else "") + "; or use --force"


def _quoted(text: str) -> str:
    return json.dumps(shorten(text, 60), ensure_ascii=False)
