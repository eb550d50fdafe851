"""selecttext: select an element's text, or part of it, as a person's drag would.

The part is found by `select_text.js` in the element's text nodes (or a
field's value). Where a drag is safe (both ends in view and uncovered, no link,
button or draggable under them) the mouse presses at the first character and
lets go after the last, so pages that react to a person's selection (a
highlighter on mouseup) see one; the selection is then checked and, when the
drag did not make it exactly, set through the page's selection API. The report
quotes what is selected, fenced; `clipboard copy` copies it.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.action.report import quote
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.page.resolver import resolve_one
from refbrowse.errors import PageError

_SELECT_JS = script("select_text")
_DRAG_STEPS = 6  # moves between press and release: a selection extends with each


@handler("selecttext")
async def selecttext(call: Call) -> str:
    selector = call.args[0]
    start, end = call.flag("--from"), call.flag("--to")
    target = await resolve_one(call.tab, selector)
    plan = await _run(target, [start, end, "plan"], call.action_timeout_ms, selector, scroll=True)
    if not plan["found"]:
        raise _not_found(selector, plan, start, end)
    done: dict[str, Any] = {}

    async def select() -> None:
        done.update(await _select(call.page, target, plan, [start, end], call.action_timeout_ms, selector))

    outcome = await perform(call, f"selecting text in {selector}", select)
    selected = " ".join(str(done.get("selected", "")).split())  # as the page shows it
    outcome.fields["selected"] = selected
    if not selected:
        outcome.notes.insert(0, "the page took the selection away: nothing is selected now")
        return outcome.report(f"Selected text in {selector}")
    outcome.quoted.insert(0, f"selected: {quote(selected)}")
    outcome.notes.append("copy it with `browse clipboard copy`")
    return outcome.report(f"Selected {_characters(selected)} in {selector}")


async def _select(
    page: Page, target: Locator, plan: dict[str, Any], part: list[str | None], ms: int, selector: str
) -> dict[str, Any]:
    """Drag over the part where that is safe; set the selection directly where the drag fell short."""
    if plan["drag"]:
        box = await target.bounding_box()
        if box is not None:  # the element's corner on the page, less its corner in its own frame
            dx, dy = box["x"] - plan["origin"][0], box["y"] - plan["origin"][1]
            x1, y1, x2, y2 = plan["drag"]
            await page.mouse.move(x1 + dx, y1 + dy)
            await page.mouse.down()
            await page.mouse.move(x2 + dx, y2 + dy, steps=_DRAG_STEPS)
            await page.mouse.up()
            state = await _run(target, [*part, "check"], ms, selector)
            if state.get("exact"):
                return state
    return await _run(target, [*part, "apply"], ms, selector)


async def _run(
    target: Locator, arg: list[str | None], ms: int, selector: str, *, scroll: bool = False
) -> dict[str, Any]:
    try:
        if scroll:
            await target.scroll_into_view_if_needed(timeout=ms)
        result = await target.evaluate(_SELECT_JS, arg, timeout=ms)
    except PlaywrightError as exc:
        raise translate(exc, f"selecting text in {selector}") from exc
    return result if isinstance(result, dict) else {"found": False, "missing": "text", "sample": ""}


def _not_found(selector: str, plan: dict[str, Any], start: str | None, end: str | None) -> PageError:
    sample = str(plan.get("sample", ""))
    shown = f"its text begins: {quote(sample)}" if sample else "it shows no text"
    if plan.get("missing") == "text":
        return PageError(f"{selector} has no visible text to select", "select an element that shows text")
    if plan.get("missing") == "to":
        return PageError(f"{selector} has no {quote(end or '')} after {quote(start or '')}", shown)
    return PageError(f"{selector} has no text {quote(start or '')}", shown)


def _characters(text: str) -> str:
    return f"{len(text)} character{'s' if len(text) != 1 else ''}"
