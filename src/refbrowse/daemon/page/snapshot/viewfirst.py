"""What is in view first: a scrolled page's lines in order of their distance from the viewport.

After `goto page#fragment`, or a click that scrolled, the lines of the top of
the page came first and the few in view near the end. The kept lines are put
in bands a viewport high: those in view, then one screen below, one screen
above, two below… each band in document order, so a list still reads top to
bottom. A line out of its document order comes with its enclosing lines
(said again, `(continued)`), and a band opens with a line of ours saying where
it stands. A page at its top is left as it is: nothing stands above it.
"""

from __future__ import annotations

from refbrowse.daemon.page.snapshot.budget import line_boxes
from refbrowse.daemon.page.snapshot.tree import Box
from refbrowse.daemon.page.snapshot.view import Line

_REF = " @"


def ordered(lines: list[Line], kept: list[Line], viewport: tuple[int, int]) -> list[str]:
    """The rendered `kept` lines (a subset of `lines`, in document order), in view first."""
    at = {id(line): index for index, line in enumerate(lines)}
    boxes = line_boxes(lines)
    height = max(viewport[1], 1)
    bands = [_band(boxes[at[id(line)]], height) for line in kept]
    if not any(band < 0 for band in bands):
        return [line.render() for line in kept]
    order = sorted(range(len(kept)), key=lambda i: (abs(bands[i]) * 2 + (bands[i] < 0), i))
    out: list[str] = []
    said: set[int] = set()
    open_chain: list[int] = []
    band_said: int | None = None
    for position in order:
        index = at[id(kept[position])]
        band = bands[position]
        if band != band_said:
            out.append(_where(band))
            band_said, open_chain = band, []
        chain = _ancestors(lines, index)
        common = 0
        while common < min(len(chain), len(open_chain)) and chain[common] == open_chain[common]:
            common += 1
        for ancestor in chain[common:]:
            line = lines[ancestor]
            out.append(line.render() + (" (continued)" if ancestor in said else ""))
            said.add(ancestor)
        if index not in said:
            out.append(lines[index].render())
            said.add(index)
        open_chain = [*chain, index]
    return out


def _band(box: Box | None, height: int) -> int:
    """0 in view; 1, 2… screens below; -1, -2… screens above; a line with no box counts as in view."""
    if box is None:
        return 0
    top, bottom = box[1], box[1] + box[3]
    if bottom <= 0:
        return -(1 + (-bottom) // height)
    if top >= height:
        return 1 + (top - height) // height
    return 0


def _where(band: int) -> str:
    if band == 0:
        return "… in view:"
    screens = f"{abs(band)} screen{'s' if abs(band) > 1 else ''}"
    return f"… {screens} {'below' if band > 0 else 'above'} the view:"


def _ancestors(lines: list[Line], index: int) -> list[int]:
    chain: list[int] = []
    parent = lines[index].parent
    while parent >= 0:
        chain.append(parent)
        parent = lines[parent].parent
    return chain[::-1]
