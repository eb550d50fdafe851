"""Interact: click, fill, type, press, select, check, uncheck, hover, scroll, viewport, upload.

Every target goes through `resolver.prepare`: exactly one element, scrolled
into view and, for pointer actions, hit-tested at its centre, so a covered or
stale target fails at once with what to do next instead of timing out. Each
action runs through `perform.perform`: it settles, then says what it did.
"""

from __future__ import annotations

import asyncio
import json
import os

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from refbrowse.daemon.action import direct_input, dropdown, fields
from refbrowse.daemon.action.direct_input import InputTo
from refbrowse.daemon.action.file_input import put_files
from refbrowse.daemon.action.perform import Action, perform
from refbrowse.daemon.action.report import Outcome
from refbrowse.daemon.action.viewdiff import asked_of
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.nofollow import kind_of
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.page.resolver import aim, click_aimed, prepare, prepare_pointer, resolve_one
from refbrowse.daemon.services.emulation import override_metrics
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG
from refbrowse.errors import ActionTimeout, BrowseError, PageError, UsageError
from refbrowse.registry import COMMANDS

_STATE_MS = 1_000  # reading the element's state after the action: it is there, or it went
_ECHO_LIMIT = 80  # a filled text echoed on the first line up to this length
_PIECE = 50  # characters `type` sends at once: a long text stops at its time, saying how far it got


def _characters(text: str) -> str:
    return f"{len(text)} character{'s' if len(text) != 1 else ''}"


def force(call: Call) -> bool:
    """--force, for the commands that take it (`type` shares this module's helpers and does not)."""
    return "--force" in COMMANDS[call.name]["flags"] and bool(call.flag("--force"))


@handler("click")
async def click(call: Call) -> str:
    selector = call.args[0]

    async def by_playwright() -> Action:
        aimed = await trace.timed("resolve", aim(call.tab, selector, force=force(call)))
        return lambda: click_aimed(call.tab, aimed)

    to = InputTo("click", selector)
    outcome = await direct_input.perform_input(call, f"clicking {selector}", to, by_playwright)
    return outcome.report(f"Clicked {selector}{call.services.clipboards.held(call.page)}")


@handler("fill")
async def fill(call: Call) -> str:
    if len(call.args) > 2:
        pairs = list(zip(call.args[::2], call.args[1::2], strict=True))
        return await fields.fill_fields(call, pairs, force(call))
    selector, text = call.args[0], call.args[1]
    asked = asked_of(selector, ": " + json.dumps(text, ensure_ascii=False)) if text else None
    target: Locator | None = None
    secret = False

    def refuse_from_argv(is_password: bool) -> None:
        nonlocal secret
        secret = is_password
        if call.argv_text and text and secret:
            fields.refuse_argv_secret(call, selector)

    async def by_playwright() -> Action | str:
        nonlocal target
        target = await trace.timed("resolve", prepare(call.tab, selector, force=force(call), hit_test=False))
        if await fields.kind_of(target) not in ("text", "password"):  # a box, a list or a dropdown
            return await fields.fill_fields(call, [(selector, text)], force(call))
        if call.argv_text and text:  # asked of the page only when it matters
            refuse_from_argv(await _is_password(target))
        field = target

        async def fill_then_release() -> None:
            await field.fill(text, force=force(call))
            await fields.last_key_up(call.page, text)

        return fill_then_release

    to = InputTo("fill", selector, text, asked, ready=lambda begun: refuse_from_argv(begun.secret))
    outcome = await direct_input.perform_input(call, f"filling {selector}", to, by_playwright)
    if isinstance(outcome, str):  # filled as the field it is: a box, a list or a dropdown
        return outcome
    if call.argv_text and text and secret:  # typed because --allow-argv-secret said so
        outcome.notes.append(
            f"hint: this password was in the command line, which every local user can read; "
            f'next time pipe it in: printf %s "$PASSWORD" | browse fill {selector} -'
        )
    held = target is None  # given the one-call way: the look after read what the field holds
    now = _held_now(outcome, text) if held else await _state_now(call, selector, target, outcome, text)
    return outcome.report(f"Filled {selector} ({_characters(text)}){now}")


_STATE_JS = script("element_state")
_STATE_MS = 1_000  # reading the element's state after the action: it is there, or it went
_ECHO_LIMIT = 80  # a filled text echoed on the first line up to this length
_PIECE = 50  # characters `type` sends at once: a long text stops at its time, saying how far it got


async def _state_now(
    call: Call, selector: str, target: Locator | None, outcome: Outcome, text: str | None = None
) -> str:
    """`: now checked`, `: now "Ann"`: the element's new state, whatever else the report says.

    A value is echoed only when it is the text the agent gave: the first line is our own words,
    never the page's.
    """
    try:
        found = target or await resolve_one(call.tab, selector)
        kind, value = await found.evaluate(_STATE_JS, timeout=_STATE_MS)
    except (PlaywrightError, BrowseError):
        return outcome.along("")
    return outcome.along(_state_words(kind, value, text))


def _held_now(outcome: Outcome, text: str | None = None) -> str:
    """`_state_now` from what the look after the action read of the element it held."""
    return outcome.along(_state_words(*outcome.held, text) if outcome.held else "")


def _state_words(kind: str, value: str, text: str | None) -> str:
    if kind == "checked":
        return ": now checked" if value in ("true", "mixed") else ": now unchecked"
    if kind == "choice":  # a select's chosen options, as a dropdown's report names its choice
        chosen = [json.dumps(name[:_ECHO_LIMIT], ensure_ascii=False) for name in value.split("\n") if name]
        return f": now {', '.join(chosen)}" if chosen else ": now nothing chosen"
    if kind == "password":
        return f": now holds {value} characters (hidden)"
    if value == text:
        return (
            f": now {json.dumps(text, ensure_ascii=False)}"
            if len(text or "") <= _ECHO_LIMIT
            else ": now holds it"
        )
    return f": the page made it {len(value)} characters: `browse snapshot -i` shows it"


async def _is_password(target: Locator) -> bool:
    try:
        return bool(await target.evaluate(_MASKED_INPUT_JS, timeout=1000))
    except PlaywrightError:
        return False


_MASKED_INPUT_JS = "e => e.type === 'password' || /password/i.test(e.autocomplete || '')"


_FOCUSED_JS = script("focused")


@handler("dblclick")
async def dblclick(call: Call) -> str:
    """A double click, which file browsers and editors use to open an item."""
    selector = call.args[0]
    target, ready = await prepare_pointer(call.tab, selector, force=force(call))
    outcome = await perform(
        call, f"double-clicking {selector}", lambda: target.dblclick(force=ready, no_wait_after=True)
    )
    return outcome.report(f"Double-clicked {selector}{call.services.clipboards.held(call.page)}")


@handler("type")
async def type_text(call: Call) -> str:
    if len(call.args) == 2:
        return await _type_into(call, call.args[0], call.args[1])
    text = call.args[0]
    focused = str(await call.page.evaluate(_FOCUSED_JS))
    if not focused:
        raise PageError(
            "no element has focus, so there is nowhere to type",
            "click the field first (`browse click SEL`), or use `browse fill SEL TEXT`",
        )
    outcome = await perform(call, "typing", lambda: _type_keys(call, text))
    return outcome.report(f"Typed {_characters(text)} into {focused}")


_FOCUS_AT_END_JS = script("focus_at_end")


async def _type_into(call: Call, selector: str, text: str) -> str:
    """`type SEL TEXT`: focus the element, then type key by key (unlike fill, key handlers fire)."""
    target = await prepare(call.tab, selector, force=force(call), hit_test=False)

    async def focus_then_type() -> None:
        await target.evaluate(_FOCUS_AT_END_JS)  # typing adds to what the field holds, as a person's would
        await _type_keys(call, text)

    outcome = await perform(call, f"typing into {selector}", focus_then_type)
    return outcome.report(f"Typed {_characters(text)} into {selector}")


async def _type_keys(call: Call, text: str) -> None:
    """Key by key, a piece at a time until the command's time is up: then it stops saying how far it
    got (the field holds that much). With a modifier held by `keydown`, a copy or paste uses the
    session's clipboard."""
    page, typed, seconds = call.page, 0, call.timeouts.longest() / 1000
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds

    async def in_pieces(part: str) -> None:
        nonlocal typed
        for start in range(0, len(part), _PIECE):
            if loop.time() > end:
                raise ActionTimeout(
                    f"type stopped after {typed:,} of {len(text):,} characters: typing key by key took its"
                    f" {seconds:g} s (--timeout); the field holds what was typed",
                    "type the rest with `browse type SEL TEXT`, or set a long text at once with"
                    " `browse fill SEL TEXT`",
                )
            await page.keyboard.type(part[start : start + _PIECE])
            typed += len(part[start : start + _PIECE])

    await call.services.clipboards.typing(call.session, page, text, in_pieces)


@handler("press")
async def press(call: Call) -> str:
    key = call.args[0]
    pressing = lambda: perform(call, f"pressing {key}", lambda: call.page.keyboard.press(key))  # noqa: E731
    clipboards = call.services.clipboards
    outcome = await clipboards.around(clipboards.chord(call.page, key), call.session, call.page, pressing)
    return outcome.report(f"Pressed {key}")


_OPTIONS_JS = script("select_options")


@handler("select")
async def select(call: Call) -> str:
    selector, wanted = call.args[0], call.args[1:]
    asked = asked_of(selector, *wanted, fold=True)
    target: Locator | None = None

    async def by_playwright() -> Action | str:
        nonlocal target
        target = await prepare(call.tab, selector, force=force(call), hit_test=False)
        found = await target.evaluate(_OPTIONS_JS, wanted)
        if found is None:  # a dropdown drawn by a component library: opened, then its option clicked
            return await dropdown.choose(call, call.page, selector, target, wanted, asked)
        *values, available = found
        missing = [w for w, v in zip(wanted, values, strict=True) if v is None]
        if missing:
            raise PageError(
                f"{selector} has no option {', '.join(repr(m) for m in missing)}",
                f"its options are: {available}",
            )
        element = target
        return lambda: element.select_option(value=values, force=force(call), no_wait_after=True)

    to = InputTo("select", selector, wanted, asked)
    outcome = await direct_input.perform_input(call, f"selecting in {selector}", to, by_playwright)
    if isinstance(outcome, str):  # chosen in a drawn dropdown, which reports itself
        return outcome
    now = await _state_now(call, selector, target, outcome)
    return outcome.report(f"Selected {', '.join(wanted)} in {selector}{now}")


async def _set_checked(call: Call, checked: bool) -> str:
    selector = call.args[0]
    doing = f"{'checking' if checked else 'unchecking'} {selector}"
    asked = asked_of(selector, "[checked]", absent=not checked)
    target: Locator | None = None

    async def by_playwright() -> Action:
        # A box hidden inside its own label (React Aria's checkboxes): Playwright's checks take the label
        # for a cover and time out, so they are skipped when our hit test found the label there just now;
        # Playwright still checks that the click changed the box.
        nonlocal target
        aimed = await aim(call.tab, selector, force=force(call), keep="")
        box, skip_checks = aimed.locator, force(call) or aimed.by_label
        target = box
        return lambda: box.set_checked(checked, force=skip_checks, no_wait_after=True)

    to = InputTo("check" if checked else "uncheck", selector, asked=asked)
    outcome = await direct_input.perform_input(call, doing, to, by_playwright)
    now = _held_now(outcome) if target is None else await _state_now(call, selector, target, outcome)
    return outcome.report(f"{'Checked' if checked else 'Unchecked'} {selector}{now}")


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
    outcome = await perform(call, f"hovering {selector}", lambda: target.hover(force=ready))
    return outcome.report(f"Hovering over {selector}")


_BOTTOM_JS = script("scroll_bottom")


@handler("scroll")
async def scroll(call: Call) -> str:
    selector = call.arg(0)
    if selector:
        target = await resolve_one(call.tab, selector)
        try:
            await target.scroll_into_view_if_needed()
        except PlaywrightError as exc:
            raise translate(exc, f"scrolling to {selector}") from exc
        return f"Scrolled {selector} into view"
    y, height = await call.page.evaluate(_BOTTOM_JS)
    return f"Scrolled to the bottom (y={y} of {height}px)"


@handler("viewport")
async def viewport(call: Call) -> str:
    width, height = call.args[0]
    scale = call.flag("--scale")  # the registry bounds the size, and the size at this scale
    await call.page.set_viewport_size({"width": width, "height": height})
    if scale is not None:
        await _device_scale(call, width, height, scale)
    dpr = await call.page.evaluate("devicePixelRatio")
    return f"Viewport {width}x{height} (scale {dpr:g})"


async def _device_scale(call: Call, width: int, height: int, scale: float) -> None:
    """Playwright fixes the scale when a context opens; Chromium's DevTools protocol can change it."""
    try:
        cdp = await call.services.cdp.session(call.page)
    except PlaywrightError as exc:
        raise PageError("--scale needs Chromium's DevTools protocol", "leave out --scale") from exc
    await override_metrics(cdp, width, height, scale)


@handler("upload")
async def upload(call: Call) -> str:
    selector, files = call.args[0], call.args[1:]
    missing = [path for path in files if not os.path.exists(path)]
    if missing:
        raise UsageError(f"no such file: {', '.join(missing)}", "give paths of existing files")
    special = [path for path in files if not os.path.isfile(path)]
    if special:
        what = kind_of(os.stat(special[0]).st_mode)
        raise UsageError(f"{special[0]}: it is {what}, not a regular file", "give paths of regular files")
    policy = call.services.policy
    # The resolved paths are sent, so a symlink swapped after the check cannot redirect the read;
    # a FIFO or device is refused by the check, before the driver could block reading it.
    real = [policy.input_path(path, call.flag(ALLOW_PATH_FLAG)) for path in files]
    target = await resolve_one(call.tab, selector)
    outcome = await perform(
        call, f"uploading to {selector}", lambda: put_files(call.page, selector, target, real)
    )
    names = ", ".join(os.path.basename(path) for path in files)
    plural = "s" if len(files) != 1 else ""
    return outcome.report(f"Uploaded {len(files)} file{plural} to {selector}: {names}")
