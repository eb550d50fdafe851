"""Click, fill, select and check begun in one page call, then the input at once.

The usual way costs several round trips before the input: the look before
the action, resolving the element, hit-testing it, then Playwright's own
actionability checks (each a round trip through its node driver). Here one
call finds the element (strictly, still what its ref was), checks it is ready
(in the top frame, visible, enabled, no animation moving it or an ancestor,
in view, reached by a click at its centre; for a field, editable; for a
select, the options exist), keeps it in the page under a fresh name and, only
then, takes the probe's look before (`pageprobe`). The input follows: the
mouse at that point (Playwright's), the text inserted on the page's DevTools
session, or, for a select, as Playwright's own selection does it in the page.

Whenever the check is not sure (a frame, a covered or moving element, a
an empty fill, a `--force`, a tab found busy), nothing has
been done and the caller takes the Playwright path, which says what is
wrong. `BROWSE_DIRECT_INPUT=0` in the daemon's environment turns this path
off: the tests compare the two.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, overload

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action.acting import Begun, InputCall, StoppedAnswering
from refbrowse.daemon.action.fields import last_key_up
from refbrowse.daemon.action.perform import Action, perform
from refbrowse.daemon.action.report import Outcome
from refbrowse.daemon.action.viewdiff import AskedOf
from refbrowse.daemon.core.devtools.scripts import called, script
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.core.sessions.refs import parse_ref
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import PageBusy, answered, page_report, probe_key
from refbrowse.daemon.page.resolver import strict_selector
from refbrowse.errors import PageError

ENABLED = os.environ.get("BROWSE_DIRECT_INPUT", "1") != "0"

_BEGIN_FAST_JS = script("input_begin_fast")  # where the document has the probe already
_BEGIN_JS = script("input_begin")


class NotDone(PageError):
    """The direct input could not be given as checked (the element went away, the box did not change)."""


@dataclass(frozen=True, slots=True)
class InputTo:
    """An input to one element: its kind (click, fill, select, check, uncheck), the element's selector,
    what it gives (the text, the options), the change it asks of its element (see `perform`), and what
    to do once it is begun the one-call way, before it is given (a password's text from argv refused)."""

    kind: str
    selector: str
    wanted: Any = None
    asked: AskedOf = None
    ready: Callable[[Begun], None] | None = None


# The Playwright path of an input: the action to perform, or (fill, select) a finished answer when
# the element wants another way altogether (a box or list filled as a field, a drawn dropdown).
Otherwise = Callable[[], Awaitable[Action]]
OtherwiseOrAnswer = Callable[[], Awaitable[Action | str]]


@overload
async def perform_input(call: InputCall, doing: str, to: InputTo, otherwise: Otherwise) -> Outcome: ...


@overload
async def perform_input(
    call: InputCall, doing: str, to: InputTo, otherwise: OtherwiseOrAnswer
) -> Outcome | str: ...


async def perform_input(
    call: InputCall, doing: str, to: InputTo, otherwise: OtherwiseOrAnswer
) -> Outcome | str:
    """The input given in one page call when the page is ready for it, else the action `otherwise`
    prepares (Playwright's path): the pipeline's one branch between the two, so a handler names both
    and `perform` runs whichever was taken; `otherwise` may answer in full instead (a str)."""
    begun = await begin(call, to.kind, to.selector, to.wanted)
    if begun is not None:
        if to.ready is not None:
            to.ready(begun)
        return await perform(call, doing, asked=to.asked, direct=begun)
    action = await otherwise()
    if isinstance(action, str):
        return action
    return await perform(call, doing, action, asked=to.asked)


async def begin(call: InputCall, kind: str, selector: str, wanted: Any = None) -> Begun | None:
    """The action begun with its element ready and the look taken; None to take the Playwright path."""
    if not ENABLED or call.flags.get("--force") or call.tab.memory.of(StoppedAnswering).busy:
        return None
    trace.mark("begin")
    query = _query(call.tab, selector)
    if query is None:
        return None
    key = "__refbrowse_aim_" + secrets.token_hex(8)
    try:
        found = await answered(trace.timed("begin", _begin(call, query, [probe_key(), kind, key, wanted])))
    except (PlaywrightError, PageBusy):
        return None
    if not found:
        return None
    trace.note(f"direct input: {kind}")
    before = page_report(found["before"], {"shown": found.get("shown")})
    held = key if kind in ("fill", "check", "uncheck") else None
    return Begun(before, _input(call, kind, key, found), bool(found.get("secret")), held)


async def _begin(call: InputCall, query: str, args: list[Any]) -> Any:
    found = await call.page.eval_on_selector(query, _BEGIN_FAST_JS, args, strict=True)
    if found is False:  # a document without the probe yet: again with its source
        trace.note("begin: no probe in this document yet")
        found = await call.page.eval_on_selector(query, _BEGIN_JS, args, strict=True)
    return found


def _query(tab: Tab, selector: str) -> str | None:
    ref = parse_ref(selector)
    if ref is None:
        return selector
    return strict_selector(tab, ref)


def _input(call: InputCall, kind: str, key: str, found: dict[str, Any]) -> Callable[[], Awaitable[object]]:
    point: list[float] | None = found.get("point")
    value = found.get("value")
    if kind == "click" and point is not None:
        return lambda: _mouse(call, point)
    if kind == "fill":
        typed = str(call.args[1])
        return lambda: _fill(call, key, str(value if value is not None else typed), typed)
    if kind == "select":
        return lambda: _select(call, key, value)
    return lambda: _check(call, key, point, kind == "check")


async def _session(call: InputCall) -> CDPSession | None:
    """The page's DevTools session; None where the browser gives none (then Playwright's input is used)."""
    try:
        return await call.services.cdp.session(call.page)
    except PlaywrightError:
        return None


async def _mouse(call: InputCall, point: list[float]) -> None:
    # Playwright's mouse: one message to its driver, which sends the move, press and release on
    # from there (measured quicker than sending the three on the DevTools session from here), and
    # its own idea of where the mouse is stays true for a later `hover` or drag.
    await call.page.mouse.click(float(point[0]), float(point[1]))


async def _in_page(call: InputCall, name: str, arg: object) -> Any:
    """The value of the page script `name` called with `arg`, in the page's main world.

    Sent on the page's DevTools session: Playwright's own `evaluate` goes through its utility
    script (its own serialisation of the argument and the value) and costs a little more each time.
    """
    cdp = await _session(call)
    if cdp is None:
        return await call.page.evaluate(script(name), arg)
    found = await cdp.send("Runtime.evaluate", {"expression": called(name, arg), "returnByValue": True})
    if "exceptionDetails" in found:
        details = found["exceptionDetails"]
        raise PlaywrightError(str(details.get("exception", {}).get("description") or details.get("text")))
    return found["result"].get("value")


async def _fill(call: InputCall, key: str, text: str, typed: str) -> None:
    """The text inserted at once into the field held under `key`, then the release of the last key
    the agent's text has (`fields.last_key_up`), as Playwright's path does too."""
    if not await _in_page(call, "held_focus", key):
        raise NotDone("the field went away before the text could be typed", "take a new `snapshot -i`")
    cdp = await _session(call)
    if cdp is None:
        await call.page.keyboard.insert_text(text)
    else:
        await cdp.send("Input.insertText", {"text": text})
    await last_key_up(call.page, typed)


async def _select(call: InputCall, key: str, value: object) -> None:
    if not await _in_page(call, "held_select", [key, value]):
        raise NotDone("the select went away before the option could be chosen", "take a new `snapshot -i`")


async def _check(call: InputCall, key: str, point: list[float] | None, checked: bool) -> None:
    if point is None:  # already as asked: nothing to click, as Playwright's own check does
        return
    await _mouse(call, point)
    state = await _in_page(call, "held_checked", key)
    if state is not None and state != checked:
        raise NotDone(
            f"clicking did not change the box's state (checked: {json.dumps(state)})",
            "the page keeps it as it is: look at it with `snapshot -i`",
        )
