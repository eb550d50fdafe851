"""Who may open the activity page: a one-time code in its URL, then a cookie.

`browse dashboard` mints a code that works once, within `CODE_TTL_S`. The page
trades it for a random cookie (HttpOnly, SameSite=Strict) and a redirect that
drops the code from the address bar. The daemon's bearer token is never part
of any of this. Every request must also name this listener as its Host, and
any Origin it carries must be the page's own: another page cannot reach the
API, and a DNS name rebound to 127.0.0.1 cannot either.
"""

from __future__ import annotations

import hmac
import secrets
import time

from aiohttp import web

CODE_TTL_S = 60.0
COOKIE = "refbrowse_activity"


class Access:
    def __init__(self) -> None:
        self._codes: dict[str, float] = {}  # code -> when it expires
        self._cookies: set[str] = set()
        self.port = 0

    def mint(self) -> str:
        now = time.monotonic()
        self._codes = {code: until for code, until in self._codes.items() if until > now}
        code = secrets.token_urlsafe(24)
        self._codes[code] = now + CODE_TTL_S
        return code

    def redeem(self, code: str) -> str | None:
        """A fresh cookie value for a live code, which is used up; None for any other code."""
        until = self._codes.pop(code, None)
        if until is None or until < time.monotonic():
            return None
        cookie = secrets.token_urlsafe(32)
        self._cookies.add(cookie)
        return cookie

    def admitted(self, request: web.BaseRequest) -> bool:
        given = request.cookies.get(COOKIE, "")
        return any(hmac.compare_digest(given, cookie) for cookie in self._cookies)

    def refusal(self, request: web.BaseRequest) -> str:
        """Why a request may not reach the page ("" if it may), before its cookie is looked at."""
        hosts = (f"127.0.0.1:{self.port}", f"localhost:{self.port}")
        if request.headers.get("Host") not in hosts:
            return "a Host header that is not this page's address"
        origin = request.headers.get("Origin")
        if origin is not None and origin not in tuple(f"http://{host}" for host in hosts):
            return "a request from another web page (its Origin is not this page's)"
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return "a request from another site (Sec-Fetch-Site)"
        return ""

    def set_cookie(self, response: web.StreamResponse, cookie: str) -> None:
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", path="/")
