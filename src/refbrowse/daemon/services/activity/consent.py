"""The activity page's part of consent: actions held for a person's answer, with Approve and Deny.

Approve runs the held command as `browse confirm ID` would (through dispatch,
so it shows in the feed); Deny drops it. Either way the agent's next command
carries the answer as a note. Reached only through the page's own sign-in, as
every `/api/` route.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from refbrowse.daemon.services.activity.body import json_object
from refbrowse.errors import BrowseError

if TYPE_CHECKING:
    from refbrowse.daemon.services.consent.gate import ConsentGate
    from refbrowse.daemon.services.daemon_link import DaemonLink


def add_routes(app: web.Application, gate: ConsentGate, daemon: DaemonLink) -> None:
    async def held(request: web.Request) -> web.StreamResponse:
        shown = [h.shown(gate.ttl_s) for h in gate.waiting()]
        return web.json_response({"ok": True, "on": gate.policy.on, "held": shown})

    async def answer(request: web.Request) -> web.StreamResponse:
        body = await json_object(request)
        held_id = str(body.get("id", ""))
        verdict = body.get("answer")
        if verdict not in ("approve", "deny"):
            return web.json_response({"ok": False, "error": "answer approve or deny"}, status=400)
        try:
            if verdict == "deny":
                denied = gate.take(held_id)
                gate.notices.add(f"denied on the activity page: [{denied.id}] {denied.said} (it did not run)")
                return web.json_response({"ok": True, "output": f"Denied: {denied.said}"})
            approved, result = await gate.confirm(held_id, daemon.dispatch)
        except BrowseError as exc:
            return web.json_response({"ok": False, "error": exc.message, "hint": exc.hint}, status=409)
        first = (str(result["output"]) if result["ok"] else f"failed: {result['error']}").split("\n", 1)[0]
        gate.notices.add(f"approved on the activity page: [{approved.id}] {approved.said}; it ran: {first}")
        return web.json_response({"ok": bool(result["ok"]), "output": first})

    app.router.add_get("/api/consent", held)
    app.router.add_post("/api/consent/answer", answer)
