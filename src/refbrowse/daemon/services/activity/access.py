"""Who may open the activity page: a one-time code in its URL, then a cookie.

`browse dashboard` mints a code that works once, within `CODE_TTL_S`. A code for
`dashboard --open` is bound to a key as well, written with it only to the private
file the web browser is given: whoever learns that code (a process list, a
shoulder) cannot redeem it without the key, which only the user can read. The page
trades it for a random cookie (HttpOnly, SameSite=Strict) and a redirect that
drops the code from the address bar. The daemon's bearer token is never part
of any of this. Every request must also name this listener as its Host, and
any Origin it carries must be the page's own: another page cannot reach the
API, and a DNS name rebound to 127.0.0.1 cannot either.

In headed mode the browser's extension shows the page in its side panel (see
`refbrowse.daemon.services.extension`). Its instance in each session holds a key the
daemon gave it (`extension_key`), with which it asks `/ext/` routes for a
fresh code; the code signs its frame in like a link. That frame's cookie is
`Partitioned` (and `Secure`, which Chromium allows on 127.0.0.1): it is kept
under the extension's own site and never sent to a page the session opens on
127.0.0.1, which shares the cookie jar but may listen on another port. The
frame is the one cross-site request let through: a GET navigation of an
iframe to the page itself, and only while the extension is loaded.
"""

from __future__ import annotations

import hmac
import secrets
import time

from aiohttp import web

CODE_TTL_S = 60.0
COOKIE = "refbrowse_activity"
KEY_HEADER = "X-Refbrowse-Key"
FRAMED_PATHS = ("/auth", "/")  # what the side panel's frame loads across sites
EXTENSION_PATHS = "/ext/"  # the extension's own calls (see `panel`)


class Access:
    def __init__(self) -> None:
        self._codes: dict[str, float] = {}  # code -> when it expires
        self._keys: dict[str, str] = {}  # code -> the key it must come with (codes bound to a key)
        self._panel_codes: set[str] = set()  # codes the extension asked for: their cookie is partitioned
        self._cookies: set[str] = set()
        self.port = 0
        self.extension_key = secrets.token_urlsafe(32)
        self.extension_origin = ""  # chrome-extension://<id> while the headed browser has it loaded

    def mint(self, for_panel: bool = False) -> str:
        now = time.monotonic()
        self._codes = {code: until for code, until in self._codes.items() if until > now}
        self._panel_codes &= set(self._codes)
        self._keys = {code: key for code, key in self._keys.items() if code in self._codes}
        code = secrets.token_urlsafe(24)
        self._codes[code] = now + CODE_TTL_S
        if for_panel:
            self._panel_codes.add(code)
        return code

    def mint_bound(self) -> tuple[str, str]:
        """A code that works only with the key that comes with it: (code, key)."""
        code, key = self.mint(), secrets.token_urlsafe(32)
        self._keys[code] = key
        return code, key

    def for_panel(self, code: str) -> bool:
        return code in self._panel_codes

    def extension_admitted(self, request: web.BaseRequest) -> bool:
        """The extension's own calls: it shows the key the daemon gave it, while it is loaded."""
        given = request.headers.get(KEY_HEADER, "")
        return bool(self.extension_origin) and hmac.compare_digest(given, self.extension_key)

    def redeem(self, code: str, key: str = "") -> str | None:
        """A fresh cookie value for a live code (with its key, if it is bound to one), which is
        used up; None for any other code. A wrong key leaves the code to its owner."""
        bound = self._keys.get(code)
        if bound is not None and not hmac.compare_digest(key.encode(), bound.encode()):
            return None
        until = self._codes.pop(code, None)
        self._keys.pop(code, None)
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
        origins = tuple(f"http://{host}" for host in hosts)
        if self.extension_origin and request.path.startswith(EXTENSION_PATHS):
            origins += (self.extension_origin,)
        if origin is not None and origin not in origins:
            return "a request from another web page (its Origin is not this page's)"
        site = request.headers.get("Sec-Fetch-Site", "same-origin")
        if (
            site not in ("same-origin", "none")
            and not self._panel_frame(request)
            and not _link_opened(request)
        ):
            return "a request from another site (Sec-Fetch-Site)"
        return ""

    def _panel_frame(self, request: web.BaseRequest) -> bool:
        """The side panel's frame loading the page: cross-site, since the panel is the extension's."""
        return (
            bool(self.extension_origin)
            and request.method == "GET"
            and request.path in FRAMED_PATHS
            and request.headers.get("Sec-Fetch-Dest") == "iframe"
        )

    def frame_ancestors(self) -> str:
        """Who may frame the page: nobody, or the extension's side panel while it is loaded."""
        return self.extension_origin or "'none'"

    def set_cookie(self, response: web.StreamResponse, cookie: str, partitioned: bool = False) -> None:
        if partitioned:
            # Written by hand: Python's cookie module knows `Partitioned` only from 3.14.
            attributes = "HttpOnly; Path=/; SameSite=Strict; Secure; Partitioned"
            response.headers.add("Set-Cookie", f"{COOKIE}={cookie}; {attributes}")
        else:
            response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", path="/")


def _link_opened(request: web.BaseRequest) -> bool:
    """A web browser opening the one-time link from a page of another origin (`dashboard --open`'s
    private file): the code it carries is the secret, and it works once."""
    return (
        request.method == "GET"
        and request.path == "/auth"
        and request.headers.get("Sec-Fetch-Mode") == "navigate"
        and request.headers.get("Sec-Fetch-Dest") == "document"
    )
