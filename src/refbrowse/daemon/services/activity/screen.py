"""The live view of a session's current tab, and the person's hands on it.

While a page watches (`/api/screen`, server-sent events), the tab streams
JPEG frames through a DevTools screencast, a few a second: a frame is
acknowledged only after `FRAME_GAP_S`, which is what paces Chromium. The
stream follows the session to whichever tab is current. "Take over" starts a
handoff marked as the page's (see `Handoffs.refusal`): from then until the
person lets go, or `browse resume`, the agent's commands fail, and the page's
clicks, wheel turns and keys go to the tab as DevTools input events.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from aiohttp import web
from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.services.activity.body import json_object, session_of
from refbrowse.daemon.services.handoff import Handoffs

log = logging.getLogger("refbrowse")

FRAME_GAP_S = 0.25  # at most about four frames a second
WAIT_S = 1.0  # how often a quiet stream looks for a new current tab
TAKEOVER_REASON = "took over on the activity page"


class Screencast:
    """One tab's DevTools screencast; frames wait in a one-place queue (the newest wins)."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue(1)
        self._cdp: CDPSession | None = None

    async def start(self) -> None:
        page = self.tab.page
        self._cdp = await page.context.new_cdp_session(page)
        self._cdp.on("Page.screencastFrame", self._frame)
        await self._cdp.send(
            "Page.startScreencast", {"format": "jpeg", "quality": 60, "maxWidth": 1280, "maxHeight": 1280}
        )

    def _frame(self, params: dict[str, Any]) -> None:
        if self.frames.full():
            self.frames.get_nowait()
        meta = params.get("metadata") or {}
        self.frames.put_nowait(
            {"data": params["data"], "width": meta.get("deviceWidth"), "height": meta.get("deviceHeight")}
        )
        asyncio.get_running_loop().create_task(self._ack(params["sessionId"]))

    async def _ack(self, frame: int) -> None:
        await asyncio.sleep(FRAME_GAP_S)
        if self._cdp is not None:
            with contextlib.suppress(PlaywrightError):
                await self._cdp.send("Page.screencastFrameAck", {"sessionId": frame})

    async def stop(self) -> None:
        cdp, self._cdp = self._cdp, None
        if cdp is not None:
            with contextlib.suppress(PlaywrightError):
                await cdp.send("Page.stopScreencast")
                await cdp.detach()


class Screens:
    def __init__(self, host: BrowserHost, handoffs: Handoffs) -> None:
        self.host = host
        self.handoffs = handoffs
        self.watching: set[Screencast] = set()
        self.inputs = asyncio.Lock()  # a person's clicks and keys reach the page one at a time

    def tab(self, session: str) -> Tab | None:
        found = self.host.sessions.get(session)
        return found.current if found is not None else None

    async def close(self) -> None:
        for cast in list(self.watching):
            await cast.stop()

    async def stream(self, request: web.Request) -> web.StreamResponse:
        session = request.query.get("session", "default")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        cast: Screencast | None = None
        try:
            while True:
                cast = await self._follow(cast, self.tab(session))
                frame = await _next_frame(cast)
                text = json.dumps({**(frame or {}), "control": self.handoffs.by_page})
                await response.write(f"event: {'frame' if frame else 'idle'}\ndata: {text}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            if cast is not None:
                self.watching.discard(cast)
                await cast.stop()
        return response

    async def _follow(self, cast: Screencast | None, tab: Tab | None) -> Screencast | None:
        """The screencast of `tab`, started anew when the current tab changed."""
        if cast is not None and cast.tab is tab and not tab.page.is_closed():
            return cast
        if cast is not None:
            self.watching.discard(cast)
            await cast.stop()
        if tab is None or tab.page.is_closed():
            return None
        fresh = Screencast(tab)
        try:
            await fresh.start()
        except PlaywrightError as exc:
            log.info("no live view of %s: %s", tab.page.url, exc.message.splitlines()[0])
            return None
        self.watching.add(fresh)
        return fresh

    async def takeover(self, request: web.Request) -> web.StreamResponse:
        body = await json_object(request)
        if body.get("on"):
            self.handoffs.begin(self.host.target, TAKEOVER_REASON, by_page=True)
        elif self.handoffs.by_page:
            self.let_go()
        return web.json_response({"ok": True, "control": self.handoffs.by_page})

    def let_go(self) -> None:
        """The person stops taking over; a handoff to a visible window they were in keeps going."""
        if self.handoffs.before == self.host.target:
            self.handoffs.end(given_back=True)
        else:
            self.handoffs.by_page = False

    async def input(self, request: web.Request) -> web.StreamResponse:
        if not self.handoffs.by_page:
            return web.json_response({"ok": False, "error": "take over first"}, status=409)
        body = await json_object(request)
        tab = self.tab(session_of(body))
        if tab is None:
            return web.json_response({"ok": False, "error": "the session has no tab"}, status=404)
        try:
            async with self.inputs:  # in the order they came: a key never overtakes a click
                await _forward(tab.page, body)
        except (PlaywrightError, ValueError, TypeError) as exc:
            return web.json_response({"ok": False, "error": f"input not delivered: {exc}"}, status=400)
        return web.json_response({"ok": True})


async def _next_frame(cast: Screencast | None) -> dict[str, Any] | None:
    if cast is None:
        await asyncio.sleep(WAIT_S)
        return None
    try:
        return await asyncio.wait_for(cast.frames.get(), WAIT_S)
    except TimeoutError:
        return None


async def _forward(page: Page, body: dict[str, Any]) -> None:
    """One input event from the page: x and y are fractions of the live image."""
    kind = body.get("kind")
    if kind in ("click", "wheel"):
        width, height = await page.evaluate("[innerWidth, innerHeight]")
        x, y = float(body["x"]) * width, float(body["y"]) * height
        await page.mouse.move(x, y)
        if kind == "click":
            await page.mouse.click(x, y)
        else:
            await page.mouse.wheel(float(body.get("dx", 0)), float(body.get("dy", 0)))
    elif kind == "key":
        key = str(body["key"])
        if len(key) == 1:
            await page.keyboard.insert_text(key)
        else:
            await page.keyboard.press(key)
    else:
        raise ValueError(f"unknown input kind {kind!r}")


def add_routes(app: web.Application, screens: Screens) -> None:
    app.router.add_get("/api/screen", screens.stream)
    app.router.add_post("/api/takeover", screens.takeover)
    app.router.add_post("/api/input", screens.input)
