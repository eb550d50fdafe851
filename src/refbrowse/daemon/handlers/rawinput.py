"""Input beyond clicks: drag, keys held down, the raw mouse.

`drag` goes through the resolver like `click` (one element, hit-tested) and
moves the mouse in steps a frame apart (`gesture`), so that both HTML5 drag
and drop and the sortable lists that follow pointer events see a drag; it ends
on an element, at a point, or at an offset from where it started.
`keydown`/`keyup` and `mouse` drive Playwright's keyboard and mouse as they are.
Each action settles and reports through `perform.perform`.
"""

from __future__ import annotations

import math

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FloatRect, Locator

from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.page.gesture import Point, drag_path
from refbrowse.daemon.page.resolver import prepare_pointer, resolve_one
from refbrowse.errors import PageError

_VIEWPORT_JS = "() => [innerWidth, innerHeight]"
DRAG_STEPS = 12  # moves of a drag whose ends are not both in view (Playwright's own, which scrolls)


@handler("drag")
async def drag(call: Call) -> str:
    source_sel, place = call.args[0], call.args[1]
    source, _ = await prepare_pointer(call.tab, source_sel, force=bool(call.flag("--force")))
    if isinstance(place, str):
        return await _drag_onto(call, source, source_sel, place)
    kind, x, y = place
    start = _middle(await _box(source, source_sel))
    end = (start[0] + x, start[1] + y) if kind == "offset" else (x, y)
    size = await call.page.evaluate(_VIEWPORT_JS)
    if not _shows(end, size):
        raise PageError(
            f"the drag would end at {end[0]:g},{end[1]:g}, outside the viewport ({size[0]}x{size[1]})",
            "give a point inside it (X,Y from its top left), or a smaller offset",
        )
    words = f"by {x:+g},{y:+g}" if kind == "offset" else f"to {x:g},{y:g}"
    outcome = await perform(call, f"dragging {source_sel} {words}", lambda: drag_path(call.page, start, end))
    return outcome.report(f"Dragged {source_sel} {words}{call.services.clipboards.held(call.page)}")


async def _drag_onto(call: Call, source: Locator, source_sel: str, target_sel: str) -> str:
    """Drop at the target's centre; a target out of sight is scrolled to, and when the two ends
    cannot both be in view Playwright's own drag scrolls between them."""
    target = await resolve_one(call.tab, target_sel)
    size = await call.page.evaluate(_VIEWPORT_JS)
    if not _shows(_middle(await _box(target, target_sel)), size):
        await _scroll_to(target, target_sel, call.action_timeout_ms)
    start = _middle(await _box(source, source_sel))
    end = _past_middle(start, await _box(target, target_sel))

    async def drag_once() -> None:
        if _shows(start, size) and _shows(end, size):
            await drag_path(call.page, start, end)
        else:
            await source.drag_to(target, steps=DRAG_STEPS, no_wait_after=True)

    outcome = await perform(call, f"dragging {source_sel} onto {target_sel}", drag_once)
    return outcome.report(f"Dragged {source_sel} onto {target_sel}{call.services.clipboards.held(call.page)}")


def _shows(point: Point, size: list[int]) -> bool:
    return 0 <= point[0] < size[0] and 0 <= point[1] < size[1]


async def _scroll_to(element: Locator, selector: str, ms: int) -> None:
    try:
        await element.scroll_into_view_if_needed(timeout=ms)
    except PlaywrightError as exc:
        raise translate(exc, f"scrolling to {selector}") from exc


async def _box(element: Locator, selector: str) -> FloatRect:
    try:
        box = await element.bounding_box()
    except PlaywrightError as exc:
        raise translate(exc, f"measuring {selector}") from exc
    if box is None:
        raise PageError(f"{selector} is not shown, so a drag cannot reach it", "make it visible first")
    return box


def _middle(box: FloatRect) -> Point:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _past_middle(start: Point, box: FloatRect) -> Point:
    """Where a hand drops onto an element to take its place: a quarter past its middle the way the
    drag goes. Sortable lists move an item past a neighbour once the pointer passes its middle, so a
    drop on the very middle left the item one place short."""
    x, y = _middle(box)
    dx, dy = x - start[0], y - start[1]
    if abs(dy) >= abs(dx):
        return x, y + math.copysign(box["height"] / 4, dy) if dy else y
    return x + math.copysign(box["width"] / 4, dx), y


@handler("keydown")
async def keydown(call: Call) -> str:
    key, page, clipboards = call.args[0], call.page, call.services.clipboards  # one key, no chord (its kind)
    # a copy or paste shortcut acts at its key's down: with the session's own clipboard, as `press`
    holding = lambda: perform(call, f"holding {key} down", lambda: page.keyboard.down(key))  # noqa: E731
    outcome = await clipboards.around(clipboards.chord(page, key), call.session, page, holding)
    clipboards.pressed(page, key, down=True)
    return outcome.report(f"Holding {key} down (release it with `browse keyup {key}`)")


@handler("keyup")
async def keyup(call: Call) -> str:
    key = call.args[0]
    if not call.services.clipboards.holds(call.page, key):  # a person cannot lift a key that is not down
        return f"{key} was not held down: nothing to release (`browse keydown {key}` holds it)"
    outcome = await perform(call, f"releasing {key}", lambda: call.page.keyboard.up(key))
    call.services.clipboards.pressed(call.page, key, down=False)
    return outcome.report(f"Released {key}")


@handler("mouse")
async def mouse(call: Call) -> str:
    action, mouse = call.args[0], call.page.mouse
    if action == "move":
        x, y = call.args[1], call.args[2]
        outcome = await perform(call, f"moving the mouse to {x:g}, {y:g}", lambda: mouse.move(x, y, steps=4))
        return outcome.report(f"Moved the mouse to {x:g}, {y:g}")
    if action == "wheel":
        dx, dy = call.args[1], call.args[2]
        outcome = await perform(call, "turning the mouse wheel", lambda: mouse.wheel(dx, dy))
        return outcome.report(f"Scrolled the mouse wheel by {dx:g}, {dy:g}")
    button = call.arg(1, "left")
    if action == "down":
        outcome = await perform(call, f"pressing the {button} button", lambda: mouse.down(button=button))
        return outcome.report(
            f"Pressed the {button} mouse button (release it with `browse mouse up {button}`)"
        )
    outcome = await perform(call, f"releasing the {button} button", lambda: mouse.up(button=button))
    return outcome.report(f"Released the {button} mouse button")
