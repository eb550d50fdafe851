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

from refbrowse.daemon.snapshot.parse import Node
from refbrowse.daemon.snapshot.roles import CONTEXT, actionable
from refbrowse.daemon.snapshot.view import Line


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


@dataclass(frozen=True, slots=True)
class Trimmed:
    lines: list[Line]
    left_out: int
    actionable_left_out: int


def _in_view(line: Line, lines: list[Line], viewport: tuple[int, int]) -> bool:
    node: Node | None = line.node
    index = line.parent
    while node is None or node.box is None:
        if index < 0:
            return False
        node, index = lines[index].node, lines[index].parent
    x, y, w, h = node.box
    return x < viewport[0] and y < viewport[1] and x + w > 0 and y + h > 0


_STRUCTURE = 9  # a line that says nothing by itself: kept only to enclose a kept line


def _worth(line: Line, lines: list[Line], viewport: tuple[int, int]) -> int:
    node = line.node
    if node is not None and line.children and _bare(line):
        return _STRUCTURE
    visible = _in_view(line, lines, viewport)
    if node is not None and actionable(node):
        return 0 if visible else 3
    if node is not None and node.role in CONTEXT:
        return 1 if visible else 4
    return 2 if visible else 5


def _bare(line: Line) -> bool:
    """`- listitem`, `- generic`: a role and nothing else."""
    return " " not in line.text[2:]


def fit(lines: list[Line], budget_chars: int, viewport: tuple[int, int]) -> Trimmed:
    """The lines that fit in `budget_chars`, most worthwhile first, in their original order."""
    order = sorted(range(len(lines)), key=lambda i: (_worth(lines[i], lines, viewport), i))
    kept: set[int] = set()
    used = 0
    for index in order:
        if _worth(lines[index], lines, viewport) == _STRUCTURE:
            break  # sorted last: everything worth keeping has been tried
        chain = []
        at = index
        while at >= 0 and at not in kept:
            chain.append(at)
            at = lines[at].parent
        cost = sum(len(lines[i].render()) + 1 for i in chain)
        if used + cost > budget_chars:
            continue
        kept.update(chain)
        used += cost
    dropped = [line for i, line in enumerate(lines) if i not in kept]
    return Trimmed(
        lines=[line for i, line in enumerate(lines) if i in kept],
        left_out=len(dropped),
        actionable_left_out=sum(1 for line in dropped if line.node is not None and actionable(line.node)),
    )


def left_out_note(trimmed: Trimmed, max_tokens: int) -> str:
    return (
        f"… {trimmed.left_out} line{'s' if trimmed.left_out != 1 else ''} left out "
        f"to stay under {max_tokens} tokens "
        f"({trimmed.actionable_left_out} of them actionable; what is in view came first): "
        "narrow with `-s SEL` or `-d N`, or `browse scroll` and snapshot again"
    )
