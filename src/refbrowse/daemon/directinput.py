"""Click, fill, select and check begun in one page call, with input through the DevTools protocol.

The usual way costs several round trips before the input: the look before
the action, resolving the element, hit-testing it, then Playwright's own
actionability checks (each a round trip through its node driver). Here one
call finds the element (strictly, still what its ref was), checks it is ready
(in the top frame, visible, enabled, no animation moving it or an ancestor,
in view, reached by a click at its centre; for a field, editable; for a
select, the options exist), keeps it in the page under a fresh name and, only
then, takes the probe's look before (`pageprobe`). The input follows on the
page's DevTools session (the mouse at that point, inserted text), or, for a
select, as Playwright's own selection does it in the page.

Whenever the check is not sure (a frame, a covered or moving element, a
an empty fill, a `--force`, a tab found busy), nothing has
been done and the caller takes the Playwright path, which says what is
wrong. `BROWSE_DIRECT_INPUT=0` in the daemon's environment turns this path
off: the tests compare the two.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon import trace
from refbrowse.daemon.effects import marked_busy
from refbrowse.daemon.handlers import Call
from refbrowse.daemon.pageprobe import PROBE_INSTALL_JS, PageBusy, PageReport, answered, probe_key
from refbrowse.daemon.refs import parse_ref
from refbrowse.daemon.resolver import HIT_TEST_JS, strict_selector
from refbrowse.daemon.session import Tab
from refbrowse.errors import PageError

ENABLED = os.environ.get("BROWSE_DIRECT_INPUT", "1") != "0"

# What each kind of action needs of its element, checked in the page; `null` when not sure.
_READY_JS = (
    """(el, [kind, aimKey, wanted]) => {
  if (window !== window.top || !el.isConnected) return null;
  if (!(el.checkVisibility ? el.checkVisibility({visibilityProperty: true}) : el.getClientRects().length))
    return null;
  if (el.matches(':disabled') || el.closest('[aria-disabled=true]')) return null;
  const moving = document.getAnimations ? document.getAnimations().some(a => a.playState === 'running'
    && a.effect && a.effect.target && a.effect.target.contains && a.effect.target.contains(el)) : true;
  if (moving) return null;
  const tag = el.tagName;
  if (kind === 'fill') {
    const TEXT = ['text', 'search', 'email', 'url', 'tel', 'password'];
    const field = tag === 'TEXTAREA' || (tag === 'INPUT' && TEXT.includes(el.type));
    if (!field || el.readOnly || !wanted) return null;
  }
  if (kind === 'select') {
    if (tag !== 'SELECT' || el.multiple || wanted.length !== 1) return null;
    const options = Array.from(el.options);
    const w = wanted[0];
    const hit = options.find(o => o.value === w) || options.find(o => o.label.trim() === w.trim())
      || options.find(o => o.text.trim().toLowerCase() === w.trim().toLowerCase());
    if (!hit || hit.disabled) return null;
    wanted = hit.value;
  }
  let checked = null;
  if (kind === 'check' || kind === 'uncheck') {
    if (tag !== 'INPUT' || !['checkbox', 'radio'].includes(el.type)) return null;
    if (kind === 'uncheck' && el.type === 'radio') return null;
    checked = el.checked;
    if (checked === (kind === 'check')) return {point: null, value: null};
  }
  if (kind === 'fill' || kind === 'select') {
    Object.defineProperty(window, aimKey, {value: new WeakRef(el), configurable: true});
    return {point: null, value: kind === 'select' ? wanted : null};
  }
  const found = ("""
    + "__HIT_TEST_JS__"
    + """)(el, true, kind === 'click' ? '' : aimKey);
  if (found.state !== 'ok') return null;
  return {point: found.point, value: null};
}"""
)

# Ready, then the look before: the probe begins the action only when the input will follow.
_BEGIN_JS = f"""(el, [probeKey, kind, aimKey, wanted]) => {{
  const ready = ({_READY_JS.replace("__HIT_TEST_JS__", HIT_TEST_JS)})(el, [kind, aimKey, wanted]);
  if (!ready) return null;
  if (!window[probeKey]) ({PROBE_INSTALL_JS})(probeKey);
  return {{...ready, before: window[probeKey].begin()}};
}}"""

# The held element focused with its text selected, as Playwright's fill does before it inserts.
_FOCUS_JS = """(key) => {
  const held = window[key];
  const el = held && held.deref();
  if (!el || !el.isConnected) return false;
  el.focus();
  el.select();
  return document.activeElement === el || el.getRootNode().activeElement === el;
}"""

# Playwright's selection: the option chosen, then `input` and `change` as a person's choice fires them.
_SELECT_JS = """([key, value]) => {
  const held = window[key];
  delete window[key];
  const el = held && held.deref();
  if (!el || !el.isConnected) return false;
  el.value = undefined;
  for (const o of el.options) if (o.value === value) { o.selected = true; break; }
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"""

_CHECKED_JS = """(key) => {
  const held = window[key];
  delete window[key];
  const el = held && held.deref();
  return el && el.isConnected ? el.checked : null;
}"""


class NotDone(PageError):
    """The direct input could not be given as checked (the element went away, the box did not change)."""


@dataclass(frozen=True, slots=True)
class Begun:
    """An action begun in one call: the look before, and the input still to give."""

    before: PageReport
    act: Callable[[], Awaitable[object]]


def _report(raw: dict[str, Any]) -> PageReport:
    return PageReport(
        int(raw["count"]),
        str(raw["document"]),
        str(raw["url"]),
        tuple((str(k), str(label), str(text)) for k, label, text in raw["messages"]),
        int(raw["elements"]),
        None,
    )


async def begin(call: Call, kind: str, selector: str, wanted: Any = None) -> Begun | None:
    """The action begun with its element ready and the look taken; None to take the Playwright path."""
    if not ENABLED or call.flags.get("--force") or marked_busy(call.tab):
        return None
    query = _query(call.tab, selector)
    if query is None:
        return None
    key = "__refbrowse_aim_" + secrets.token_hex(8)
    try:
        found = await answered(
            trace.timed(
                "begin",
                call.page.eval_on_selector(query, _BEGIN_JS, [probe_key(), kind, key, wanted], strict=True),
            )
        )
    except (PlaywrightError, PageBusy):
        return None
    if not found:
        return None
    trace.note(f"direct input: {kind}")
    return Begun(_report(found["before"]), _input(call, kind, key, found))


def _query(tab: Tab, selector: str) -> str | None:
    ref = parse_ref(selector)
    if ref is None:
        return selector
    return strict_selector(tab, ref)


def _input(call: Call, kind: str, key: str, found: dict[str, Any]) -> Callable[[], Awaitable[object]]:
    point: list[float] | None = found.get("point")
    value = found.get("value")
    if kind == "click" and point is not None:
        return lambda: _mouse(call, point)
    if kind == "fill":
        return lambda: _fill(call, key, str(value if value is not None else call.args[1]))
    if kind == "select":
        return lambda: _select(call, key, value)
    return lambda: _check(call, key, point, kind == "check")


async def _session(call: Call) -> CDPSession | None:
    """The page's DevTools session; None where the browser gives none (then Playwright's input is used)."""
    try:
        return await call.services.cdp.session(call.page)
    except PlaywrightError:
        return None


async def _mouse(call: Call, point: list[float]) -> None:
    x, y = float(point[0]), float(point[1])
    cdp = await _session(call)
    if cdp is None:
        await call.page.mouse.click(x, y)
        return
    press = {"x": x, "y": y, "button": "left", "clickCount": 1}
    # sent together: the session delivers them in order, and one round trip is waited for, not three
    await asyncio.gather(
        cdp.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}),
        cdp.send("Input.dispatchMouseEvent", {"type": "mousePressed", **press}),
        cdp.send("Input.dispatchMouseEvent", {"type": "mouseReleased", **press}),
    )


async def _fill(call: Call, key: str, text: str) -> None:
    if not await call.page.evaluate(_FOCUS_JS, key):
        raise NotDone("the field went away before the text could be typed", "take a new `snapshot -i`")
    cdp = await _session(call)
    if cdp is None:
        await call.page.keyboard.insert_text(text)
        return
    await cdp.send("Input.insertText", {"text": text})


async def _select(call: Call, key: str, value: object) -> None:
    if not await call.page.evaluate(_SELECT_JS, [key, value]):
        raise NotDone("the select went away before the option could be chosen", "take a new `snapshot -i`")


async def _check(call: Call, key: str, point: list[float] | None, checked: bool) -> None:
    if point is None:  # already as asked: nothing to click, as Playwright's own check does
        return
    await _mouse(call, point)
    state = await call.page.evaluate(_CHECKED_JS, key)
    if state is not None and state != checked:
        raise NotDone(
            f"clicking did not change the box's state (checked: {json.dumps(state)})",
            "the page keeps it as it is: look at it with `snapshot -i`",
        )
