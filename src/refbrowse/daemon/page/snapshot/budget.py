"""`--max-tokens N`: keep the lines that matter most within a budget.

Tokens are estimated as characters / 4. Lines are taken in order of worth:
what can be acted on inside the viewport, then headings and landmarks there,
then text there, then what can be acted on elsewhere, then the rest. A line
always comes with the lines that enclose it, so the indentation still tells
where it sits; a bare wrapper (`- listitem`) is never kept for its own sake.
What was left out is counted for the closing note.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbrowse.daemon.page.snapshot.roles import CONTEXT, actionable
from refbrowse.daemon.page.snapshot.tree import Box
from refbrowse.daemon.page.snapshot.view import Line


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


@dataclass(frozen=True, slots=True)
class Trimmed:
    lines: list[Line]
    left_out: int
    actionable_left_out: int


def line_boxes(lines: list[Line]) -> list[Box | None]:
    """Each line's box: its node's, else the nearest enclosing line's (text lines have none).

    One pass in document order (a parent's line comes before its children's),
    instead of a walk up the tree for every line.
    """
    boxes: list[Box | None] = []
    for line in lines:
        node = line.node
        own = node.box if node is not None else None
        boxes.append(own if own is not None or line.parent < 0 else boxes[line.parent])
    return boxes


def _in_view(box: Box | None, viewport: tuple[int, int]) -> bool:
    if box is None:
        return False
    x, y, w, h = box
    return x < viewport[0] and y < viewport[1] and x + w > 0 and y + h > 0


_STRUCTURE = 9  # a line that says nothing by itself: kept only to enclose a kept line


def _worth(line: Line, visible: bool) -> int:
    node = line.node
    if node is not None and line.children and _bare(line):
        return _STRUCTURE
    if node is not None and actionable(node):
        return 0 if visible else 3
    if node is not None and node.role in CONTEXT:
        return 1 if visible else 4
    return 2 if visible else 5


def _bare(line: Line) -> bool:
    """`- listitem`, `- generic`: a role and nothing else."""
    return " " not in line.text[2:]


def fit(lines: list[Line], budget_chars: int, viewport: tuple[int, int]) -> Trimmed:
    """The lines that fit in `budget_chars`, most worthwhile first, in their original order.

    Linear in the lines (but for the sort): each line's worth and size are
    found once, and the walk up a line's unkept enclosing lines stops as soon
    as their cost is over what is left, so a small budget costs less, not more.
    """
    worth = [
        _worth(line, _in_view(box, viewport)) for line, box in zip(lines, line_boxes(lines), strict=True)
    ]
    size = [len(line.text) + 2 * line.depth + 1 for line in lines]  # len(line.render()) + newline
    kept = [False] * len(lines)
    used = 0
    for index in sorted(range(len(lines)), key=lambda i: (worth[i], i)):
        if worth[index] == _STRUCTURE:
            break  # sorted last: everything worth keeping has been tried
        chain = _chain(lines, kept, size, index, budget_chars - used)
        if chain is None:
            continue
        for at in chain:
            kept[at] = True
            used += size[at]
    dropped = [line for line, keep in zip(lines, kept, strict=True) if not keep]
    return Trimmed(
        lines=[line for line, keep in zip(lines, kept, strict=True) if keep],
        left_out=len(dropped),
        actionable_left_out=sum(1 for line in dropped if line.node is not None and actionable(line.node)),
    )


def _chain(lines: list[Line], kept: list[bool], size: list[int], index: int, room: int) -> list[int] | None:
    """`index` and its enclosing lines not kept yet, if together they fit in `room` characters."""
    chain: list[int] = []
    cost = 0
    at = index
    while at >= 0 and not kept[at]:
        cost += size[at]
        if cost > room:
            return None
        chain.append(at)
        at = lines[at].parent
    return chain


LEFT_OUT = "left out to stay under"  # words of the note below, which readers of a snapshot look for


def left_out_note(trimmed: Trimmed, max_tokens: int) -> str:
    return (
        f"… {trimmed.left_out} line{'s' if trimmed.left_out != 1 else ''} {LEFT_OUT} {max_tokens} tokens "
        f"({trimmed.actionable_left_out} of them actionable; what is in view came first): "
        "narrow with `-s SEL` or `-d N`, or `browse scroll` and snapshot again"
    )
