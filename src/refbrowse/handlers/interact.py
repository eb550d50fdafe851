"""Interact: click, fill, type, press, select, check, uncheck, hover, scroll, wait, viewport, upload.

Every target goes through `resolver.prepare`: exactly one element, scrolled
into view and, for pointer actions, hit-tested at its centre, so a covered or
stale target fails at once with what to do next instead of timing out. An
action that navigates waits for the new page before it answers, so the next
command sees it.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator, Request
from playwright.async_api import TimeoutError as PlaywrightTimeout

from refbrowse.errors import PageError, UsageError
from refbrowse.handlers import Call, handler
from refbrowse.pwerrors import translate
from refbrowse.refs import parse_ref
from refbrowse.resolver import prepare, prepare_pointer, resolve, resolve_one

_SIZE = re.compile(r"^(\d{2,5})[x×](\d{2,5})$")
_LONGEST_WAIT_MS = 30_000
_KEY_GRACE_MS = 150  # how long a key press may take to start the navigation it causes


class _NavigationWatch:
    """Notices whether the main frame starts loading or commits a new page during an action."""

    def __init__(self, call: Call) -> None:
        self.page = call.page
        self.started: Request | None = None
        self.settled = asyncio.Event()  # committed, or the request ended without a page (a download)
        self.committed = False

    def __enter__(self) -> _NavigationWatch:
        self.page.on("request", self._request)
        self.page.on("framenavigated", self._navigated)
        self.page.on("requestfailed", self._ended)
        return self

    def __exit__(self, *_: object) -> None:
        self.page.remove_listener("request", self._request)
        self.page.remove_listener("framenavigated", self._navigated)
        self.page.remove_listener("requestfailed", self._ended)

    def _request(self, request: Request) -> None:
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self.started = request

    def _navigated(self, frame: Frame) -> None:
        if frame == self.page.main_frame:
            self.committed = True
            self.settled.set()

    def _ended(self, request: Request) -> None:
        if request is self.started:
            self.settled.set()


async def act(call: Call, doing: str, action: Callable[[], Awaitable[object]], grace_ms: int = 0) -> bool:
    """Run `action`; True when the main frame navigated, once the new page is ready.

    Clicks wait for the navigations they start; keys do not, so `grace_ms` gives
    a form submission time to begin before the command answers.
    """
    with _NavigationWatch(call) as watch:
        try:
            await action()
            if grace_ms and not watch.committed:
                await _until(lambda: watch.started is not None or watch.committed, grace_ms)
            if watch.started is not None and not watch.committed:
                await asyncio.wait_for(watch.settled.wait(), call.nav_timeout_ms / 1000)
            if watch.committed:
                await call.page.wait_for_load_state("domcontentloaded", timeout=call.nav_timeout_ms)
        except PlaywrightError as exc:
            raise translate(exc, doing) from exc
        except TimeoutError as exc:
            raise translate(PlaywrightTimeout(f"the page did not load after {doing}"), doing) from exc
    return watch.committed


async def _until(condition: Callable[[], bool], limit_ms: int) -> None:
    waited = 0
    while not condition() and waited < limit_ms:
        await asyncio.sleep(0.01)
        waited += 10


def force(call: Call) -> bool:
    return bool(call.flags.get("--force"))


@handler("click")
async def click(call: Call) -> str:
    selector = call.args[0]
    target, ready = await prepare_pointer(call.tab, selector, force=force(call))
    before = call.page.url
    navigated = await act(call, f"clicking {selector}", lambda: target.click(force=ready))
    where = call.page.url
    moved = "navigated to" if navigated and where != before else "now at"
    return f"Clicked {selector}; {moved} {where}"


@handler("fill")
async def fill(call: Call) -> str:
    selector, text = call.args[0], call.args[1]
    target = await prepare(call.tab, selector, force=force(call), hit_test=False)
    await act(call, f"filling {selector}", lambda: target.fill(text, force=force(call)))
    return f"Filled {selector} ({len(text)} characters)"


_FOCUSED_JS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body || a === document.documentElement) return '';
  return a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + (a.name ? `[name=${a.name}]` : '');
}"""


@handler("type")
async def type_text(call: Call) -> str:
    text = call.args[0]
    focused = str(await call.page.evaluate(_FOCUSED_JS))
    if not focused:
        raise PageError(
            "no element has focus, so there is nowhere to type",
            "click the field first (`browse click SEL`), or use `browse fill SEL TEXT`",
        )
    await act(call, "typing", lambda: call.page.keyboard.type(text))
    return f"Typed {len(text)} characters into {focused}"


@handler("press")
async def press(call: Call) -> str:
    key = call.args[0]
    before = call.page.url
    navigated = await act(call, f"pressing {key}", lambda: call.page.keyboard.press(key), _KEY_GRACE_MS)
    after = f"; navigated to {call.page.url}" if navigated and call.page.url != before else ""
    return f"Pressed {key}{after}"


_OPTIONS_JS = """(el, wanted) => {
  if (el.tagName !== 'SELECT') return null;
  const options = Array.from(el.options);
  return wanted.map(w => {
    const hit = options.find(o => o.value === w) || options.find(o => o.label.trim() === w.trim())
      || options.find(o => o.text.trim().toLowerCase() === w.trim().toLowerCase());
    return hit ? hit.value : null;
  }).concat([options.map(o => o.label.trim()).join(', ')]);
}"""


@handler("select")
async def select(call: Call) -> str:
    selector, wanted = call.args[0], call.args[1:]
    target = await prepare(call.tab, selector, force=force(call), hit_test=False)
    found = await target.evaluate(_OPTIONS_JS, wanted)
    if found is None:
        raise PageError(f"{selector} is not a <select>", "for a custom dropdown, click it, then the option")
    *values, available = found
    missing = [w for w, v in zip(wanted, values, strict=True) if v is None]
    if missing:
        raise PageError(
            f"{selector} has no option {', '.join(repr(m) for m in missing)}",
            f"its options are: {available}",
        )
    await act(call, f"selecting in {selector}", lambda: target.select_option(value=values, force=force(call)))
    return f"Selected {', '.join(wanted)} in {selector}"


async def _set_checked(call: Call, checked: bool) -> str:
    selector = call.args[0]
    target = await prepare(call.tab, selector, force=force(call))
    doing = f"{'checking' if checked else 'unchecking'} {selector}"
    await act(call, doing, lambda: target.set_checked(checked, force=force(call)))
    return f"{'Checked' if checked else 'Unchecked'} {selector}"


@handler("check")
async def check(call: Call) -> str:
    return await _set_checked(call, True)


@handler("uncheck")
async def uncheck(call: Call) -> str:
    return await _set_checked(call, False)


@handler("hover")
async def hover(call: Call) -> str:
    selector = call.args[0]
    target, ready = await prepare_pointer(call.tab, selector, force=force(call))
    await act(call, f"hovering {selector}", lambda: target.hover(force=ready))
    return f"Hovering over {selector}"


_BOTTOM_JS = """() => {
  const el = document.scrollingElement || document.documentElement;
  window.scrollTo(0, el.scrollHeight);
  return [Math.round(scrollY), el.scrollHeight];
}"""


@handler("scroll")
async def scroll(call: Call) -> str:
    selector = call.arg(0)
    if selector:
        target = await resolve_one(call.tab, selector)
        await act(call, f"scrolling to {selector}", target.scroll_into_view_if_needed)
        return f"Scrolled {selector} into view"
    y, height = await call.page.evaluate(_BOTTOM_JS)
    return f"Scrolled to the bottom (y={y} of {height}px)"


@handler("wait")
async def wait(call: Call) -> str:
    target = call.arg(0)
    states = [state for state in ("load", "networkidle") if call.flags.get(f"--{state}")]
    if bool(target) + len(states) != 1:
        raise UsageError(
            "wait takes one of SEL, MS, --load or --networkidle", "for example: browse wait .done"
        )
    if states:
        await act(call, f"waiting for {states[0]}", lambda: _load_state(call, states[0]))
        return f"Page reached {states[0]}: {call.page.url}"
    assert target is not None
    if target.isdigit():
        return await _sleep(int(target))
    locator = await _waitable(call, target)
    await act(call, f"waiting for {target}", lambda: locator.wait_for(state="visible"))
    return f"{target} is visible"


async def _load_state(call: Call, state: str) -> None:
    await call.page.wait_for_load_state(
        "load" if state == "load" else "networkidle", timeout=call.nav_timeout_ms
    )


async def _sleep(ms: int) -> str:
    if ms > _LONGEST_WAIT_MS:
        raise UsageError(
            f"wait {ms} is longer than {_LONGEST_WAIT_MS} ms", "wait for an element or --load instead"
        )
    await asyncio.sleep(ms / 1000)
    return f"Waited {ms} ms"


async def _waitable(call: Call, target: str) -> Locator:
    """A ref must exist now; a CSS selector may still be on its way."""
    if parse_ref(target) is not None:
        return await resolve(call.tab, target)
    return call.page.locator(target).first


@handler("viewport")
async def viewport(call: Call) -> str:
    size = _SIZE.match(call.args[0].strip())
    if not size:
        raise UsageError(
            f"viewport takes WIDTHxHEIGHT, got {call.args[0]!r}", "for example: viewport 1280x800"
        )
    width, height = int(size.group(1)), int(size.group(2))
    scale = call.flags.get("--scale")
    await call.page.set_viewport_size({"width": width, "height": height})
    if isinstance(scale, str):
        await _device_scale(call, width, height, _scale(scale))
    dpr = await call.page.evaluate("devicePixelRatio")
    return f"Viewport {width}x{height} (scale {dpr:g})"


def _scale(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0.25 <= value <= 5:
        raise UsageError(f"--scale takes a number from 0.25 to 5, got {raw!r}", "for example: --scale 2")
    return value


async def _device_scale(call: Call, width: int, height: int, scale: float) -> None:
    """Playwright fixes the scale when a context opens; Chromium's DevTools protocol can change it."""
    try:
        cdp = await call.session.context.new_cdp_session(call.page)
    except PlaywrightError as exc:
        raise PageError("--scale needs Chromium's DevTools protocol", "leave out --scale") from exc
    metrics = {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False}
    # The session stays attached: Chromium drops the override when it detaches.
    await cdp.send("Emulation.setDeviceMetricsOverride", metrics)


@handler("upload")
async def upload(call: Call) -> str:
    selector, files = call.args[0], call.args[1:]
    missing = [path for path in files if not os.path.isfile(path)]
    if missing:
        raise UsageError(f"no such file: {', '.join(missing)}", "give paths of existing files")
    target = await resolve_one(call.tab, selector)
    await act(call, f"uploading to {selector}", lambda: target.set_input_files(files))
    names = ", ".join(os.path.basename(path) for path in files)
    return f"Uploaded {len(files)} file{'s' if len(files) != 1 else ''} to {selector}: {names}"
