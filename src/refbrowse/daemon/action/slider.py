"""`fill` on a slider: moved by its keys, as a person moves it.

A slider drawn by a component library (role=slider: Radix, MUI, BaseWeb…)
takes no typed value, and one built on a native range (react-aria's, in
Streamlit) takes its value for good only from a key or the pointer: a value
set on the input moves the thumb and is never sent. So `fill` focuses the
slider and presses the keys the slider pattern promises: Home and End for its
ends, else an arrow once to learn its step, then as many presses as the
distance takes, then a few more to correct, reading the value between runs.
The value is checked against the slider's range before anything moves; a
value between its steps ends on the nearest one, and the report says so. A
native range further than `MAX_PRESSES` steps from the value gets the value
set instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from playwright.async_api import Locator

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.errors import PageError

_STATE_JS = script("slider_state")
MAX_PRESSES = 500  # a slider further than this many steps from the value is not walked there
_CORRECTIONS = 4  # presses after the run, one at a time, to land on the value
_SHARE_CLOSE = 0.5  # a handle's place read off its box lands this near the share asked for


@dataclass(frozen=True, slots=True)
class Range:
    now: float
    low: float
    high: float
    step: float | None = None  # a native range's; a drawn slider's is learnt by pressing a key
    words: str = ""  # the value as the slider says it (aria-valuetext: "M" for position 1)
    native: bool = False  # an <input type=range>
    share: bool = False  # a handle drawn without ARIA: its place on the track, 0 to 100


async def range_of(selector: str, target: Locator) -> Range:
    """The slider's value and range; an error when the page gives none to go by."""
    found = await target.evaluate(_STATE_JS)
    if found["now"] is None or found["min"] is None or found["max"] is None:
        raise PageError(
            f"{selector} is a slider without a value or range the page tells (aria-valuenow, -min, -max)",
            f"move it with its keys (browse click {selector}, then browse press ArrowRight) or drag it",
        )
    step = float(found["step"]) if found.get("step") else None
    words = str(found.get("words") or "")
    return Range(
        float(found["now"]),
        float(found["min"]),
        float(found["max"]),
        step,
        words,
        bool(found["native"]),
        bool(found.get("share")),
    )


def wanted_value(selector: str, text: str, span: Range) -> float:
    """The number `text` asks for, within the slider's range."""
    try:
        wanted = float(text)
    except ValueError:
        wanted = float("nan")
    if not span.low <= wanted <= span.high and span.share:  # NaN fails this too
        raise PageError(
            f"{selector} is a slider handle that says no value: fill takes its place along the track,"
            f" 0 to 100 (a share), not {text!r}",
            f"for example: browse fill {selector} 50 (the middle); the page's number says where it landed",
        )
    if not span.low <= wanted <= span.high:
        spoken = span.words and span.words != _number(span.now)
        raise PageError(
            f"{selector} is a slider from {_number(span.low)} to {_number(span.high)}: fill takes a number"
            f" in that range, not {text!r}",
            f"it says its value in words ({span.words!r} at {_number(span.now)}): fill takes the position"
            if spoken
            else f"for example: browse fill {selector} {_number(span.low)}",
        )
    return wanted


def setter(selector: str, target: Locator, wanted: float, notes: list[str]) -> Callable[[], Awaitable[None]]:
    """What sets the slider to `wanted` (and notes where it ended when its steps miss the value)."""

    async def set_value() -> None:
        span = await range_of(selector, target)
        if span.native and (span.step is None or abs(wanted - span.now) / span.step > MAX_PRESSES):
            await target.fill(_number(wanted))  # too far to walk: its value set, as Playwright sets it
        else:
            await _walk(selector, target, wanted, span)
        ended = (await range_of(selector, target)).now
        if not _same(ended, wanted) and not (span.share and abs(ended - wanted) < _SHARE_CLOSE):
            notes.append(f"{selector} moves in steps that miss {_number(wanted)}: it holds {_number(ended)}")

    return set_value


async def _walk(selector: str, target: Locator, wanted: float, span: Range) -> None:
    if _same(span.now, wanted):
        return
    await target.focus()
    keyboard = target.page.keyboard
    if _same(wanted, span.low) or _same(wanted, span.high):
        await keyboard.press("Home" if _same(wanted, span.low) else "End")
        return
    up, down = "ArrowRight", "ArrowLeft"
    await keyboard.press(up if wanted > span.now else down)
    moved = await _now(selector, target)
    if _same(moved, span.now):
        raise PageError(
            f"{selector} did not move when an arrow key was pressed on it",
            f"drag it instead: browse drag {selector} <another element>",
        )
    if (moved > span.now) != (wanted > span.now):  # a slider drawn right to left
        up, down = down, up
    step = abs(moved - span.now)
    key = up if wanted > moved else down
    for _ in range(min(round(abs(wanted - moved) / step), MAX_PRESSES)):
        await keyboard.press(key)
    await _correct(selector, target, wanted, step, (up, down))


async def _correct(selector: str, target: Locator, wanted: float, step: float, keys: tuple[str, str]) -> None:
    """A few single presses towards `wanted`, stopping on it or on the step nearest to it."""
    keyboard = target.page.keyboard
    for _ in range(_CORRECTIONS):
        now = await _now(selector, target)
        if _same(now, wanted) or abs(now - wanted) < step / 2:
            return
        await keyboard.press(keys[0] if wanted > now else keys[1])


async def _now(selector: str, target: Locator) -> float:
    return (await range_of(selector, target)).now


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
