"""Each session's clipboard, its own: Chromium has one clipboard for all its contexts.

The daemon keeps a clipboard per session. `clipboard write` and `read` use it
alone. A page's `navigator.clipboard` is the session's too (see
`clipboard_keeper.js`): what it writes goes there, and it reads it only where
the agent granted `clipboard-read` (`browse permissions grant`). Chromium's own
clipboard is used only while a command needs it, one command at a time: a paste
(`clipboard paste`, `press Control+V`) puts the session's text there first, a
copy or cut (`clipboard copy`, `press Control+C`) takes what it copied from
there, with `clipboard-read` granted to the page for that moment only, and
either way it is emptied after. A page of another session polling the
clipboard finds nothing of this one's, and a command of another session never
reads it.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Awaitable, Callable
from contextlib import suppress
from functools import partial
from typing import Any, TypeVar
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.devtools.scripts import called
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.emulation import apply_grants
from refbrowse.daemon.services.sessionsettings import SessionSettings
from refbrowse.errors import PageError

T = TypeVar("T")
BINDING = "__refbrowseClipboard"  # the function the keeper script calls, in this session's pages only
MAX_CHARS = 10_000_000  # what a session's clipboard holds at most
_NATIVE = ["clipboard-read", "clipboard-write"]
_WORLD = "refbrowse clipboard"  # an isolated world: Chromium's own clipboard API, not the page's


_PRIMARY = {"control", "meta", "controlormeta"}


def shortcut(key: str) -> str:
    """ "paste", "copy" (a cut too) or "" for a `press` key such as Control+V or Shift+Insert."""
    *held, last = key.lower().split("+")
    mods = set(held)
    if (mods & _PRIMARY and last == "v") or (mods == {"shift"} and last == "insert"):
        return "paste"
    if (mods & _PRIMARY and last in ("c", "x")) or (mods, last) in (
        ({"control"}, "insert"),
        ({"shift"}, "delete"),
    ):
        return "copy"
    return ""


_MODIFIERS = {"alt", "shift", *_PRIMARY}


class Clipboards:
    def __init__(self, settings: SessionSettings, cdp: CdpKeeper) -> None:
        self.texts: dict[str, str] = {}  # session -> its clipboard
        self._settings = settings
        self._cdp = cdp
        self._native = asyncio.Lock()  # Chromium's one clipboard, for one command at a time
        self._held: weakref.WeakKeyDictionary[Page, list[str]] = weakref.WeakKeyDictionary()
        self._down: weakref.WeakKeyDictionary[Page, set[str]] = weakref.WeakKeyDictionary()  # every key held
        self._forgetting: set[Page] = set()  # pages whose copy Chromium's clipboard is to forget

    def chord(self, page: Page, key: str) -> str:
        """`key` as the page gets it: with the modifiers `keydown` holds there ("Control+v" for `v`
        while Control is down), so that `press` and `keydown` see a shortcut made in two commands."""
        held = [mod for mod in self._held.get(page, []) if mod.lower() not in key.lower().split("+")]
        return "+".join([*held, key])

    def held(self, page: Page) -> str:
        """` with Control held down (…)` for a pointer action's first line while `keydown` holds
        modifiers on the page (a click then opens a link in a new tab, or adds to a selection)."""
        keys = self._held.get(page, [])
        if not keys:
            return ""
        return f" with {'+'.join(keys)} held down (`browse keyup {keys[-1]}` releases it)"

    def opens_in_background(self, page: Page) -> bool:
        """Whether a click on `page` opens a link in a background tab: Control or Meta held."""
        return any(key.lower() in _PRIMARY for key in self._held.get(page, []))

    def holds(self, page: Page, key: str) -> bool:
        """Whether `keydown` holds `key` on the page: a key never held down has nothing to release."""
        return key.lower() in self._down.get(page, set())

    def pressed(self, page: Page, key: str, down: bool) -> None:
        """`keydown`/`keyup` of `key` done: a key is held on the page until it goes up."""
        others = self._down.get(page, set()) - {key.lower()}
        self._down[page] = others | {key.lower()} if down else others
        if key.lower() not in _MODIFIERS:
            return
        held = [mod for mod in self._held.get(page, []) if mod.lower() != key.lower()]
        self._held[page] = [*held, key] if down else held

    async def on_new_session(self, session: Session) -> None:
        """Before the session's first page: its pages' clipboard API goes to its own clipboard."""
        name = session.name

        async def keeper(source: dict[str, Any], kind: str, text: object = "") -> str | None:
            return await self._from_page(name, source, kind, text)

        await session.context.expose_binding(BINDING, keeper)
        await session.context.add_init_script(called("clipboard_keeper", BINDING))

    def text(self, session: str) -> str:
        return self.texts.get(session, "")

    def set(self, session: str, text: str) -> None:
        self.texts[session] = text[:MAX_CHARS]

    async def around(self, key: str, session: Session, page: Page, action: Callable[[], Awaitable[T]]) -> T:
        """`action`, a press of `key`: with the session's clipboard when it is a paste, copy or cut
        shortcut on a web page."""
        kind = shortcut(key) if urlsplit(page.url).scheme in ("http", "https") else ""
        if kind == "paste":
            return await self.pasting(session, page, action)
        if kind == "copy":
            return await self.copying(session, page, action)
        return await action()

    async def typing(
        self, session: Session, page: Page, text: str, type_text: Callable[[str], Awaitable[None]]
    ) -> None:
        """`text` typed by `type_text`; a character that makes a copy or paste shortcut with the
        modifiers `keydown` holds (Control held, then `type v`) is typed alone, with the session's
        clipboard as `press` has it: Chromium's own is never read or left holding a copy."""
        if not any(shortcut(self.chord(page, key)) for key in set(text)):
            await type_text(text)
            return
        for key in text:
            await self.around(self.chord(page, key), session, page, partial(type_text, key))

    async def pasting(self, session: Session, page: Page, action: Callable[[], Awaitable[T]]) -> T:
        """`action` (a paste) with the session's text on Chromium's clipboard, emptied after."""
        async with self._native:
            try:
                await self._put(page, self.text(session.name))
                return await action()
            finally:
                await self._empty(page)

    async def copying(self, session: Session, page: Page, action: Callable[[], Awaitable[T]]) -> T:
        """`action` (a copy or cut); what it put on Chromium's clipboard becomes the session's."""
        async with self._native:
            try:
                await self._put(page, "")
                done = await action()
                self.set(session.name, await self._take(session, page))
                return done
            finally:
                await self._empty(page)

    async def _from_page(self, session: str, source: dict[str, Any], kind: str, text: object) -> str | None:
        if kind == "read":  # refused without the permission, as a browser refuses it
            return self.text(session) if self._may_read(session, str(source["frame"].url)) else None
        if kind in ("write", "copied"):
            self.set(session, str(text))
        # the page's copy also put it on Chromium's clipboard, every session's: emptied (one emptying
        # waiting per page covers every copy made meanwhile)
        if kind == "copied" and source["page"] not in self._forgetting:
            self._forgetting.add(source["page"])
            spawn(self.forget_native(source["page"]))
        return None

    def _may_read(self, session: str, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        grants = self._settings.value(session, "permissions") or []
        return any("clipboard-read" in names and where in ("", origin) for names, where in grants)

    async def forget_native(self, page: Page) -> None:
        """Empty Chromium's clipboard through `page` (once the copy that runs there has ended), without
        bringing it to the front: what a page copied is its session's alone."""
        async with self._native:
            self._forgetting.discard(page)  # a copy from now on waits for another emptying
            with suppress(PlaywrightError, PageError):  # a page that went: the next copy or paste empties it
                await self._native_call(page, called("clipboard_forget"), focus=False)

    async def _take(self, session: Session, page: Page) -> str:
        parts = urlsplit(page.url)
        await session.context.grant_permissions(_NATIVE, origin=f"{parts.scheme}://{parts.netloc}")
        try:
            return str(await self._native_call(page, "navigator.clipboard.readText()"))
        finally:
            await apply_grants(session, self._settings)  # the grant lasts this read only

    async def _put(self, page: Page, text: str) -> None:
        await self._native_call(page, f"navigator.clipboard.writeText({json.dumps(text)})")

    async def _empty(self, page: Page) -> None:
        with suppress(PlaywrightError, PageError):  # a page that went meanwhile holds nothing
            await self._put(page, "")

    async def _native_call(self, page: Page, expression: str, focus: bool = True) -> object:
        """`expression` in an isolated world of the page's main frame: Chromium's clipboard API."""
        try:
            if focus:
                await page.bring_to_front()  # the clipboard answers only a focused document
            cdp = await self._cdp.session(page)
            tree = await cdp.send("Page.getFrameTree")
            world = await cdp.send(
                "Page.createIsolatedWorld", {"frameId": tree["frameTree"]["frame"]["id"], "worldName": _WORLD}
            )
            answer = await cdp.send(
                "Runtime.evaluate",
                {
                    "expression": expression,
                    "awaitPromise": True,
                    "returnByValue": True,
                    "userGesture": True,  # a copy from script is refused without one
                    "contextId": world["executionContextId"],
                },
            )
        except PlaywrightError as exc:
            raise translate(exc, "using the clipboard") from exc
        if "exceptionDetails" in answer:
            said = answer["exceptionDetails"].get("exception", {}).get("description", "an error")
            raise PageError(
                f"the clipboard refused: {said.splitlines()[0]}", "click the page, then try again"
            )
        return answer["result"].get("value")
