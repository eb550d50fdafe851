"""The clipboard: copy the selection, paste into the focused field, read it, write to it.

`copy` and `paste` are the platform's shortcuts as a person presses them: a key
event that carries the browser's own copy or paste command (DevTools
`Input.dispatchKeyEvent` with `commands`), so they act in the focused frame, the
page's copy and paste handlers run, and no agent has to know whether the
shortcut is Control or Meta. Both settle and report like any action. The
clipboard is the session's own (see `services.clipboard`): `read` and `write`
use it alone, and `copy` and `paste` use Chromium's one clipboard only while they run.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.action.report import quote
from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.errors import PageError

_SELECTION_JS = script("selection_now")
_FOCUSED_JS = script("focused")
# The key a person presses for each command: Control with it, as on Linux and Windows.
_SHORTCUT = {"copy": ("c", "KeyC", 67), "paste": ("v", "KeyV", 86)}
_CONTROL = 2  # DevTools' modifier bit for Control


@handler("clipboard")
async def clipboard(call: Call) -> str:
    page = call.page
    _web_page(page)
    action = call.args[0]
    if action == "copy":
        return await _copy(call, page)
    if action == "paste":
        return await _paste(call, page)
    if action == "write":
        text = str(call.args[1])
        call.services.clipboards.set(call.session.name, text)
        return Reply(f"Wrote {len(text)} characters to the clipboard", {"chars": len(text)})
    text = call.services.clipboards.text(call.session.name)
    shown = fence(text, page.url, call.raw) if text else "(the clipboard is empty)"
    return Reply(shown, {"text": text})


async def _copy(call: Call, page: Page) -> str:
    if not await _selected(page):
        raise PageError(
            "nothing is selected, so there is nothing to copy",
            "select text first: `browse selecttext SEL` (or `--from TEXT --to TEXT` for part of it)",
        )
    outcome = await call.services.clipboards.copying(
        call.session,
        page,
        lambda: perform(call, "copying the selection", lambda: _shortcut(call, page, "copy")),
    )
    text = call.services.clipboards.text(call.session.name)
    outcome.fields["copied"] = text
    outcome.quoted.insert(0, f"copied: {quote(' '.join(text.split()))}")
    outcome.notes.append("paste it with `browse clipboard paste` into the focused field")
    return outcome.report(f"Copied {_characters(text)} to the clipboard")


async def _paste(call: Call, page: Page) -> str:
    focused = str(await page.evaluate(_FOCUSED_JS))
    if not focused:
        raise PageError(
            "no element has focus, so there is nowhere to paste",
            "click the field first (`browse click SEL`)",
        )
    text = call.services.clipboards.text(call.session.name)
    outcome = await call.services.clipboards.pasting(
        call.session, page, lambda: perform(call, "pasting", lambda: _shortcut(call, page, "paste"))
    )
    return outcome.report(f"Pasted {_characters(text)} into {focused}")


async def _selected(page: Page) -> str:
    """The selected text of the focused frame, else the first frame that has any."""
    found: list[str] = []
    for frame in page.frames:
        try:
            text, focused = await frame.evaluate(_SELECTION_JS)
        except PlaywrightError:
            continue  # a frame that went or does not answer holds no selection we can copy
        if text and focused:
            return str(text)
        found += [str(text)] if text else []
    return found[0] if found else ""


async def _shortcut(call: Call, page: Page, command: str) -> None:
    key, code, vk = _SHORTCUT[command]
    event = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "modifiers": _CONTROL}
    try:
        cdp = await call.services.cdp.session(page)
        await cdp.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **event, "commands": [command]})
        await cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **event})
    except PlaywrightError:  # a browser without DevTools: the shortcut as Playwright presses it
        await page.keyboard.press(f"ControlOrMeta+{key}")


def _web_page(page: Page) -> None:
    if urlsplit(page.url).scheme not in ("http", "https"):
        raise PageError(
            f"the clipboard needs a web page; this tab shows {page.url}",
            "open an http(s) page first (`browse goto URL`)",
        )


def _characters(text: str) -> str:
    return f"{len(text)} character{'s' if len(text) != 1 else ''}"
