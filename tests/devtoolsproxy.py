"""A DevTools endpoint in front of a real Chromium that misbehaves for every connection after the first.

Playwright's connection (the first) is passed through; the daemon's own (the
ones after it, `workersockets`) meets the chosen trouble: `silent` (never
answers), `garbage` (answers what is not JSON), `closed` (closed at once),
`huge` (a 60 MB answer), or `drop` (passed through until `drop()`).
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.request

from aiohttp import ClientSession, WSMsgType, web

HUGE = 60 * 1024 * 1024


class DevtoolsProxy:
    def __init__(self, real_port: int, mode: str) -> None:
        self.real_port, self.mode = real_port, mode
        self.sockets = 0  # WebSocket connections made to it
        self._dropped = asyncio.Event()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._serve, args=(ready,), daemon=True).start()
        ready.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def drop(self) -> None:
        self.loop.call_soon_threadsafe(self._dropped.set)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)

    def _serve(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        app = web.Application()
        app.router.add_get("/json/version{tail:.*}", self._version)
        app.router.add_get("/devtools/{path:.*}", self._socket)
        self.runner = web.AppRunner(app)
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        ready.set()
        self.loop.run_forever()

    async def _version(self, request: web.Request) -> web.Response:
        url = f"http://127.0.0.1:{self.real_port}/json/version"
        info = json.loads(await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=10).read()))
        info["webSocketDebuggerUrl"] = info["webSocketDebuggerUrl"].replace(
            f":{self.real_port}/", f":{self.port}/"
        )
        return web.json_response(info)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        self.sockets += 1
        ours = web.WebSocketResponse(max_msg_size=0)
        await ours.prepare(request)
        if self.sockets > 1 and self.mode == "closed":
            await ours.close()
            return ours
        if self.sockets > 1 and self.mode in ("silent", "garbage", "huge"):
            await self._misbehave(ours)
            return ours
        await self._relay(ours, request.path)
        return ours

    async def _misbehave(self, ours: web.WebSocketResponse) -> None:
        async for message in ours:
            if message.type != WSMsgType.TEXT:
                continue
            if self.mode == "garbage":
                await ours.send_str("<html>not DevTools {{{")
            elif self.mode == "huge":
                ident = json.loads(message.data)["id"]
                await ours.send_str(json.dumps({"id": ident, "result": {"pad": "a" * HUGE}}))

    async def _relay(self, ours: web.WebSocketResponse, path: str) -> None:
        first = self.sockets == 1
        async with ClientSession() as http:
            real = await http.ws_connect(f"ws://127.0.0.1:{self.real_port}{path}", max_msg_size=0)

            async def pipe(source: object, sink: object) -> None:
                async for message in source:  # type: ignore[attr-defined]
                    if message.type == WSMsgType.TEXT:
                        await sink.send_str(message.data)  # type: ignore[attr-defined]

            tasks = [asyncio.ensure_future(pipe(ours, real)), asyncio.ensure_future(pipe(real, ours))]
            if not first:
                tasks.append(asyncio.ensure_future(self._dropped.wait()))
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
            await real.close()
            await ours.close()
