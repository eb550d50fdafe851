"""What a remote browser's refusal means, in one error an agent can act on.

A browser pool (Browserless, a hosted CDP service, a Grid's CDP endpoint)
answers the WebSocket upgrade of `connect_over_cdp` with an HTTP status when
it will not hand out a browser, and Playwright reports it as
"WebSocket error: URL 429 Too Many Requests". A pool that queues the request
instead never answers before the connect timeout. Each case becomes its own
message and next step here, so the agent learns at once that waiting, a token
or the pool's limits are the fix, never after a hang.
"""

from __future__ import annotations

import re

from refbrowse.errors import Unavailable

_STATUS = re.compile(r"WebSocket error: \S+ (\d{3})\b")
_TIMEOUT = re.compile(r"Timeout (\d+)ms exceeded")

_FULL_HINT = (
    "try again when one of its sessions ends (`browse stop` in a workspace you no longer use frees "
    "its browser), or raise the pool's limits (Browserless: CONCURRENT and QUEUED)"
)


def refusal(message: str, endpoint: str, variable: str) -> Unavailable | None:
    """Our error for a pool's refusal in Playwright's `message`; None when it is not one."""
    status = _STATUS.search(message)
    if status:
        return _by_status(int(status.group(1)), endpoint, variable)
    waited = _TIMEOUT.search(message)
    if waited:
        seconds = int(waited.group(1)) // 1000
        return Unavailable(
            f"the remote browser at {endpoint} did not answer within {seconds} s "
            "(a pool that is full may be holding the request in its queue)",
            f"check that it is running and reachable; for a pool, {_FULL_HINT}",
        )
    return None


def _by_status(code: int, endpoint: str, variable: str) -> Unavailable | None:
    if code == 429:
        return Unavailable(
            f"the browser pool at {endpoint} is full: it refused a new browser "
            "(429: all its sessions are in use and its queue is full)",
            _FULL_HINT,
        )
    if code in (401, 403):
        return Unavailable(
            f"the browser pool at {endpoint} refused the token ({code})",
            f"check the token in {variable} (for Browserless, `?token=` with its TOKEN)",
        )
    if code == 408:
        return Unavailable(
            f"the browser pool at {endpoint} gave up on the request (408): it waited in its queue "
            "past the pool's time limit",
            f"try again when the pool is less busy, or raise its TIMEOUT (Browserless: TIMEOUT=0 "
            f"for none, or `&timeout=MS` in {variable})",
        )
    if code in (502, 503, 504):
        return Unavailable(
            f"the browser pool at {endpoint} is unavailable ({code}): overloaded or restarting",
            "try again shortly, or check the pool's own status",
        )
    if code == 400:
        return Unavailable(
            f"the remote browser at {endpoint} refused the connection (400)",
            "for a Selenium Grid, that session has ended (its --session-timeout) or never existed: "
            f"create one (POST /session) and put its se:cdp URL in {variable}",
        )
    if code == 404:
        return Unavailable(
            f"nothing answers at that path of {endpoint} (404)",
            f"check the path in {variable}: for Browserless ws://HOST:3000?token=TOKEN, for a "
            "Selenium Grid the session's se:cdp URL",
        )
    return None
