"""The routes the headed browser's extension calls, under `/ext/`, with the key the daemon gave it.

`/ext/code` mints a one-time code for the side panel's frame (its cookie is
partitioned: see `access`), `/ext/health` is the badge's heartbeat, and
`/ext/refs` gives the refs of a session's latest snapshot, with where each
element was, for the @ref overlay. The key is checked before these run.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from aiohttp import web

from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.services.activity.access import EXTENSION_PATHS, Access

if TYPE_CHECKING:
    from refbrowse.daemon.services.daemon_link import DaemonLink

PREFIX = EXTENSION_PATHS


class Heartbeat:
    """When the extension last asked whether the daemon answers, for `status`."""

    def __init__(self) -> None:
        self.last = 0.0

    def line(self) -> str:
        if not self.last:
            return ""
        return f"its badge last asked the daemon {time.monotonic() - self.last:.0f} s ago"


def refs_of(tab: Tab | None) -> list[dict[str, object]]:
    """The live refs of a tab's latest snapshot; `box` is where the element was in the viewport."""
    if tab is None:
        return []
    return [
        {"ref": str(t.ref), "role": t.role, "name": t.name, "states": list(t.states), "box": t.box}
        for t in tab.refs.live()
    ]


def add_routes(app: web.Application, daemon: DaemonLink, access: Access, heartbeat: Heartbeat) -> None:
    async def code(request: web.Request) -> web.StreamResponse:
        return web.json_response({"ok": True, "code": access.mint(for_panel=True)})

    async def health(request: web.Request) -> web.StreamResponse:
        heartbeat.last = time.monotonic()
        return web.json_response({"ok": True})

    async def refs(request: web.Request) -> web.StreamResponse:
        session = daemon.host.sessions.get(request.query.get("session", "default"))
        tab = session.current if session is not None else None
        url = tab.page.url if tab is not None else ""
        return web.json_response({"ok": True, "url": url, "refs": refs_of(tab)})

    app.router.add_post(PREFIX + "code", code)
    app.router.add_get(PREFIX + "health", health)
    app.router.add_get(PREFIX + "refs", refs)
