"""Text an action brought into view while no new control came with it.

An accordion that opens, a "Show details" button, a panel of prose: the
controls do not change, so the diff of the interactive view is empty and a
report that said only "Clicked @e26" read the same as a click that did
nothing. A tab whose panel is prose shows only that the tab is selected and
the other panel's controls went. The text that appeared is quoted (a few
lines, after the diff if there is one), with the command that reads the rest.
"""

from __future__ import annotations

import json
from collections import Counter

from refbrowse.daemon.page.snapshot.roles import INTERACTIVE
from refbrowse.daemon.page.snapshot.service import PageSnapshot

SHOWN = 3  # lines of new text quoted
LINE_CHARS = 150  # characters of one quoted line


def texts(snapshot: PageSnapshot | None) -> tuple[str, ...] | None:
    """The page's text as the snapshot holds it, a line a piece, in document order; None when unread.

    Controls' names and values are left out: the interactive view says those.
    """
    if snapshot is None:
        return None
    out: list[str] = []
    for node in snapshot.tree.walk():
        if node.role in INTERACTIVE:
            continue
        pieces = [c for c in node.children if isinstance(c, str)]
        pieces += [node.value] if node.value else []
        out += [flat for piece in pieces if (flat := " ".join(piece.split()))]
    return tuple(out)


def lines(before: tuple[str, ...] | None, after: tuple[str, ...] | None) -> tuple[list[str], list[str]]:
    """`text appeared: "…"` lines (page text, to fence) for what `after` holds that `before` did not
    (as many times), and our note on how to read the rest."""
    if before is None or after is None:
        return [], []
    left = Counter(before)
    new: list[str] = []
    for text in after:
        if left[text] > 0:
            left[text] -= 1
        else:
            new.append(text)
    more = len(new) - SHOWN
    note = [f"… {more} more line{'s' if more != 1 else ''} of new text: `browse text`"] if more > 0 else []
    return [f"text appeared: {_quote(text)}" for text in new[:SHOWN]], note


def _quote(text: str) -> str:
    short = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
    return json.dumps(short, ensure_ascii=False)
