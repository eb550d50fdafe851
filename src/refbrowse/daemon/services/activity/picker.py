"""The cookie picker: browsers and profiles on this computer, their domains, and an import.

The page sees cookie domains with counts, never a name's value. An import
runs `cookie-import-browser --domain D` for each chosen domain through the
daemon's dispatch, so it is the command's own code path, and it shows in the
feed like any other command.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Any

from aiohttp import web

from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.services.activity.body import json_object, session_of
from refbrowse.daemon.services.cookies.model import host_of
from refbrowse.daemon.services.cookies.profiles import BROWSERS, profiles
from refbrowse.errors import BrowseError

if TYPE_CHECKING:
    from refbrowse.daemon.services.daemon_link import DaemonLink

MAX_DOMAINS = 200  # one import from the page at most


def installed() -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for browser in BROWSERS:
        names = [profile.name for profile in profiles(browser)]
        if names:
            found.append({"browser": browser.key, "title": browser.title, "profiles": names})
    return found


def domain_counts(browser: str, profile: str) -> dict[str, object]:
    # imported here: reading a browser's cookie store loads sqlite3 and cryptography (~20 ms)
    from refbrowse.daemon.services.cookies.browsers import read_cookies

    found = read_cookies(browser, profile)
    counts = Counter(host_of(cookie) for cookie in found.cookies)
    return {
        "browser": found.browser,
        "profile": found.profile,
        "domains": [{"domain": d, "count": n} for d, n in sorted(counts.items())],
        "undecrypted": sum(found.failures.values()),
    }


def add_routes(app: web.Application, daemon: DaemonLink) -> None:
    async def browsers(request: web.Request) -> web.StreamResponse:
        return web.json_response({"ok": True, "browsers": await asyncio.to_thread(installed)})

    async def domains(request: web.Request) -> web.StreamResponse:
        browser, profile = request.query.get("browser", ""), request.query.get("profile", "")
        try:
            counted = await asyncio.to_thread(domain_counts, browser, profile)
        except BrowseError as exc:
            return web.json_response({"ok": False, "error": exc.message, "hint": exc.hint}, status=400)
        return web.json_response({"ok": True, **counted})

    async def import_chosen(request: web.Request) -> web.StreamResponse:
        body = await json_object(request)
        session = session_of(body)
        chosen = body.get("domains")
        if not isinstance(chosen, list) or not chosen or len(chosen) > MAX_DOMAINS:
            return web.json_response({"ok": False, "error": "choose 1 to 200 domains"}, status=400)
        results = [await daemon.dispatch(_request(body, str(domain), session)) for domain in chosen]
        lines = [r["output"] if r["ok"] else f"error: {r['error']}" for r in results]
        return web.json_response({"ok": all(r["ok"] for r in results), "output": "\n".join(lines)})

    app.router.add_get("/api/cookies/browsers", browsers)
    app.router.add_get("/api/cookies/domains", domains)
    app.router.add_post("/api/cookies/import", import_chosen)


def _request(body: dict[str, Any], domain: str, session: str) -> CheckedRequest:
    return CheckedRequest.from_body(
        {
            "command": "cookie-import-browser",
            "args": [str(body.get("browser") or "")],
            "flags": {"--profile": str(body.get("profile") or ""), "--domain": domain},
            "session": session,
            "client": "activity page",
        }
    )
