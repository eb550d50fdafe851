"""A drag as a person's hand makes it: press, move in small steps a frame apart, let go.

Sortable lists decide where an item goes from the pointer's path, not its end:
SortableJS ignores moves over an item it is still animating, and a drag whose
moves all arrive within a millisecond left the item one place short. So the
moves are spread a frame apart, and the mouse rests a moment at the end before
it lets go, as a hand does. HTML5 drag and drop sees the same moves (Playwright
turns them into drag events in Chromium).
"""

from __future__ import annotations

import asyncio
import math

from playwright.async_api import Page

FRAME_S = 0.016  # between two moves: one frame at 60 Hz
REST_S = 0.05  # at the end, before letting go
STEP_PX = 12  # about this far between moves
MIN_STEPS, MAX_STEPS = 5, 30

Point = tuple[float, float]


async def drag_path(page: Page, start: Point, end: Point) -> None:
    """Press at `start`, move to `end` in steps a frame apart, rest, and release there."""
    mouse = page.mouse
    await mouse.move(*start)
    await mouse.down()
    steps = steps_for(start, end)
    for step in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * step / steps
        y = start[1] + (end[1] - start[1]) * step / steps
        await mouse.move(x, y)
        await asyncio.sleep(FRAME_S)
    await asyncio.sleep(REST_S)
    await mouse.move(*end)  # a last move at rest: some lists place the item on the move before the release
    await mouse.up()


def steps_for(start: Point, end: Point) -> int:
    distance = math.hypot(end[0] - start[0], end[1] - start[1])
    return max(MIN_STEPS, min(MAX_STEPS, round(distance / STEP_PX)))
