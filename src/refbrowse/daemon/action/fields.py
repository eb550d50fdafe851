"""`fill` of several fields, or of a box or dropdown: each set as its kind takes it, one report.

A form is filled in one call: text into fields, yes or no into boxes, an
option's name into a <select> or a component library's dropdown, a number
into a slider (`slider`). Every
element is found and its value checked before anything is set, so a wrong
ref, word or option changes nothing; a field that fails once the form is being
filled says which ones were set before it. The page settles once, after the
last field, and one report says what the form became.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from refbrowse.daemon.action import cell_edit, dropdown, options, slider
from refbrowse.daemon.action.acting import InputCall
from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.action.viewdiff import Asked, asked_of
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.page.resolver import aim, prepare
from refbrowse.errors import BrowseError, PageError, UsageError

YES = ("yes", "true", "on", "checked", "check", "1")
NO = ("no", "false", "off", "unchecked", "uncheck", "0")
_ECHO_LIMIT = 40  # a value echoed in the first line up to this length
ALLOW_ARGV_SECRET = "--allow-argv-secret"  # noqa: S105 - a flag name
_KIND_JS = script("field_kind")
_OPTIONS_JS = script("select_options")
_TAGS_JS = script("tags_box")
_FILLS = (
    "fill takes text fields, text areas and editable elements, boxes (yes or no), <select>s and"
    " dropdowns (an option's name), sliders (a number), a grid's editable cells"
)


@dataclass(frozen=True, slots=True)
class Field:
    """One element to set: how, what the report's first line says of it, and the change it asks."""

    selector: str
    set: Callable[[], Awaitable[object]]
    said: str
    asked: Asked | None
    secret: bool = False


async def kind_of(target: Locator) -> str:
    """What `fill` sets on the element (see field_kind.js): 'text', 'password', 'checkbox', 'select'…"""
    return str(await target.evaluate(_KIND_JS))


async def fill_fields(call: InputCall, pairs: list[tuple[str, str]], force: bool) -> str:
    """Set every (selector, text) pair in order, settle once, and report."""
    notes: list[str] = []  # what setting a field found out, for the report
    fields = [await _field(call, selector, text, force, notes) for selector, text in pairs]
    done: list[str] = []

    async def fill_all() -> None:
        for one in fields:
            try:
                await one.set()
            except PlaywrightError as exc:
                raise _partway(one.selector, done, translate(exc, f"filling {one.selector}")) from exc
            except BrowseError as exc:
                raise _partway(one.selector, done, exc) from exc
            done.append(one.selector)

    # the texts the command line held; those given as `-` came on stdin
    given = [one for k, one in enumerate(fields) if 2 * k + 1 not in call.stdin_texts]
    secret = next((one.selector for one in given if one.secret), None) if call.argv_text else None
    if secret is not None:
        refuse_argv_secret(call, secret)  # before any field is set
    asked = tuple(one.asked for one in fields if one.asked is not None)
    doing = f"filling {fields[0].selector}" if len(fields) == 1 else f"filling {len(fields)} fields"
    outcome = await perform(call, doing, fill_all, asked=asked)
    outcome.notes += notes
    if secret is not None:  # typed because --allow-argv-secret said so
        outcome.notes.append(
            "hint: a password was in the command line, which every local user can read; next time"
            f' pipe it in: printf %s "$PASSWORD" | browse fill … {secret} -'
        )
    if len(fields) == 1:  # the one form every action's first line gives a new state in
        one = fields[0]
        state = one.said.removeprefix(one.selector + " ")
        if one.secret or state == one.said:
            return outcome.report(f"Filled {one.said}{outcome.along('')}")
        return outcome.report(f"Filled {one.selector}{outcome.along(': now ' + state)}")
    return outcome.report(f"Filled {len(fields)} fields: {', '.join(one.said for one in fields)}")


def refuse_argv_secret(call: InputCall, selector: str) -> None:
    """Refuses a password field's text that came in the command line, unless --allow-argv-secret:
    every local user reads the process list, so the text is not typed (a UsageError, exit 2)."""
    if call.flags.get(ALLOW_ARGV_SECRET):
        return
    raise UsageError(
        f"{selector} is a password field and its text was in the command line, which every local user"
        " can read: nothing was typed",
        f'pipe it in: printf %s "$PASSWORD" | browse fill {selector} - (or save the login with'
        " `browse auth save NAME --url URL` and run `browse auth login NAME`); --allow-argv-secret types it",
    )


async def _field(call: InputCall, selector: str, text: str, force: bool, notes: list[str]) -> Field:
    target = await prepare(call.tab, selector, force=force, hit_test=False)
    kind = await kind_of(target)
    if kind in ("text", "password"):
        return _text_field(selector, text, target, kind, force)
    if kind == "combobox":
        return _combobox(call, selector, text, target, force, notes)
    if kind in ("checkbox", "radio"):
        return await _box(call, selector, text, force, radio=kind == "radio")
    if kind == "select":
        return await _select(selector, text, target, force)
    if kind == "slider":
        return await _slider(selector, text, target, notes)
    if kind == "cell":
        return Field(
            selector, lambda: cell_edit.edit(selector, target, text, force), f"{selector} {_echo(text)}", None
        )
    if kind == "readonly":
        raise PageError(
            f"{selector} is read-only: the page sets it itself, fill cannot type into it",
            "set the control that goes with it instead (a slider or a picker beside it: browse snapshot -i)",
        )
    try:
        choose = await dropdown.opening(call.page, selector, target, text) if kind == "other" else None
    except PageError:
        choose = None
    if choose is None:
        raise PageError(f"{selector} is not a text field, box or dropdown: fill cannot set it", _FILLS)
    return Field(selector, choose, f"{selector} {_echo(text)}", asked_of(selector, text, fold=True))


def _text_field(selector: str, text: str, target: Locator, kind: str, force: bool) -> Field:
    async def fill() -> None:
        await target.fill(text, force=force)
        await last_key_up(target.page, text)

    if kind == "password":
        said = f"{selector} ({len(text)} character{'s' if len(text) != 1 else ''}, hidden)"
        return Field(selector, fill, said, asked_of(selector), secret=True)
    asked = asked_of(selector, ": " + json.dumps(text, ensure_ascii=False)) if text else None
    return Field(selector, fill, f"{selector} {_echo(text)}", asked)


def _combobox(
    call: InputCall, selector: str, text: str, target: Locator, force: bool, notes: list[str]
) -> Field:
    """A field with a list: the text typed, then the option of that name chosen when the list shows one."""

    async def fill_and_pick() -> None:
        revealed = options.Revealed(call.page, text)
        await revealed.start()
        try:
            await target.fill(text, force=force)
            await last_key_up(call.page, text)
            picked = await dropdown.pick_typed(call.page, text, revealed) if text else "option"
        finally:
            await revealed.dispose()
        if not picked and await target.evaluate(_TAGS_JS):
            await call.page.keyboard.press("Enter")  # a box of tags takes a new one on Enter
            picked = "enter"
        notes.extend(_picked_notes(selector, text, picked))
        if picked and await target.get_attribute("aria-expanded") == "true":
            await target.evaluate("e => e.blur()")  # a list that takes several stays open: done with it

    return Field(selector, fill_and_pick, f"{selector} {_echo(text)}", asked_of(selector, text, fold=True))


def _picked_notes(selector: str, text: str, picked: str) -> list[str]:
    if picked == "new":
        return [f"{selector} took {_echo(text)} as a new value: fill chose the box's item that adds it"]
    if picked == "enter":
        return [f"{selector} listed no option {_echo(text)}: fill pressed Enter, which adds it to the box"]
    if not picked:
        return [
            f"{selector}'s list shows no option {_echo(text)}: the text stays typed; if the box takes new"
            f" values, `browse press Enter` adds it; if only its options, `browse select {selector} NAME`"
            " lists them"
        ]
    return []


async def _box(call: InputCall, selector: str, text: str, force: bool, radio: bool) -> Field:
    word = text.strip().casefold()
    if word not in YES + NO:
        raise PageError(
            f"{selector} is a box: fill takes yes or no for it, not {json.dumps(text, ensure_ascii=False)}",
            f"for example: browse fill {selector} yes (or no; also true/false, on/off)",
        )
    on = word in YES
    if radio and not on:
        raise PageError(
            f"{selector} is a radio button: choosing another one of its group is what clears it",
            f"fill the one you want with yes (`browse fill @eN yes`), not {selector} with {text}",
        )
    # A box hidden inside its own label: Playwright would take the label for a cover (see `check`).
    aimed = await aim(call.tab, selector, force=force, keep="")

    async def set_box() -> None:
        await aimed.locator.set_checked(on, force=force or aimed.by_label, no_wait_after=True)

    asked = asked_of(selector, "[checked]", absent=not on)
    return Field(selector, set_box, f"{selector} {'checked' if on else 'unchecked'}", asked)


async def _select(selector: str, text: str, target: Locator, force: bool) -> Field:
    value, available = await target.evaluate(_OPTIONS_JS, [text])
    if value is None:
        named = json.dumps(text, ensure_ascii=False)
        raise PageError(f"{selector} has no option {named}", f"its options are: {available}")

    async def select() -> None:
        await target.select_option(value=[value], force=force, no_wait_after=True)

    return Field(selector, select, f"{selector} {_echo(text)}", asked_of(selector, text, fold=True))


async def _slider(selector: str, text: str, target: Locator, notes: list[str]) -> Field:
    span = await slider.range_of(selector, target)
    wanted = slider.wanted_value(selector, text, span)
    move = slider.setter(selector, target, wanted, notes)
    return Field(selector, move, f"{selector} {_echo(text)}", asked_of(selector, text, fold=True))


async def last_key_up(page: Page, text: str) -> None:
    """The release of the text's last key, as a person's last keystroke ends: a page that reads its
    field on `keyup` (a search that filters as one types) sees what was filled. Backspace's for an
    emptied field; none after a space or a line break, nor for a character no key types."""
    last = text[-1:] or "\b"
    if last == "\b":
        await trace.timed("key up", page.keyboard.up("Backspace"))
    elif last.isascii() and last.isprintable() and not last.isspace():
        await trace.timed("key up", page.keyboard.up(last))


def _echo(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    return quoted if len(text) <= _ECHO_LIMIT else f"({len(text)} characters)"


def _partway(selector: str, done: list[str], error: BrowseError) -> PageError:
    if not done:
        return PageError(error.message, error.hint)
    set_before = ", ".join(done)
    return PageError(
        f"{error.message} (after setting {set_before})",
        f"{error.hint + '; ' if error.hint else ''}{set_before} {'stays' if len(done) == 1 else 'stay'} set;"
        f" fix {selector} and fill it again",
    )
