"""Input beyond clicks: drag, keys held down, the raw mouse.

`drag` goes through the resolver like `click` (one element, hit-tested) and
moves the mouse in steps, so that both HTML5 drag and drop and the sortable
lists that follow pointer events see a drag. `keydown`/`keyup` and `mouse`
drive Playwright's keyboard and mouse as they are. Each action settles and
reports through `perform.perform`.
"""

from __future__ import annotations

from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.page.resolver import prepare_pointer, resolve_one

# Intermediate moves of a drag: sortable lists move an item only once the pointer has travelled
# past a threshold in several events, and HTML5 drag and drop needs a move over the target.
DRAG_STEPS = 12


@handler("drag")
async def drag(call: Call) -> str:
    source_sel, target_sel = call.args[0], call.args[1]
    forced = bool(call.flag("--force"))
    source, ready = await prepare_pointer(call.tab, source_sel, force=forced)
    target = await resolve_one(call.tab, target_sel)

    async def drag_once() -> None:
        await source.drag_to(target, force=ready or forced, steps=DRAG_STEPS, no_wait_after=True)

    outcome = await perform(call, f"dragging {source_sel} onto {target_sel}", drag_once)
    return outcome.report(f"Dragged {source_sel} onto {target_sel}")


@handler("keydown")
async def keydown(call: Call) -> str:
    key = call.args[0]  # one key, no chord (its kind)
    outcome = await perform(call, f"holding {key} down", lambda: call.page.keyboard.down(key))
    return outcome.report(f"Holding {key} down (release it with `browse keyup {key}`)")


@handler("keyup")
async def keyup(call: Call) -> str:
    key = call.args[0]
    outcome = await perform(call, f"releasing {key}", lambda: call.page.keyboard.up(key))
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
