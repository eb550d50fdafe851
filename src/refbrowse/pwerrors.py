"""Playwright's exceptions → refbrowse's errors, in this one place.

Playwright for Python raises only `Error`, `TimeoutError` and
`TargetClosedError`; what went wrong is in the message text. The pre-checks in
the handlers avoid most failures; whatever must still be recognised from the
text is recognised here, against the pinned Playwright version (tests cover
each pattern).
"""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from refbrowse.errors import (
    ActionTimeout,
    BrowseError,
    NavigationError,
    PageError,
    Unavailable,
    UsageError,
)

_NET_ERROR = re.compile(r"net::(ERR_[A-Z_]+)")

_NET_HINTS = {
    "ERR_CONNECTION_REFUSED": "connection refused: is the server running on that port?",
    "ERR_NAME_NOT_RESOLVED": "the host name does not resolve: check the URL",
    "ERR_ADDRESS_UNREACHABLE": "the address is unreachable from this machine",
    "ERR_INTERNET_DISCONNECTED": "this machine has no network access to that host",
    "ERR_CERT_AUTHORITY_INVALID": "the site's TLS certificate is not trusted",
    "ERR_FILE_NOT_FOUND": "no such file: check the path",
    "ERR_UNSAFE_PORT": "Chromium refuses to load this port: serve the page on another one",
    "ERR_CONNECTION_RESET": "the server reset the connection",
    "ERR_EMPTY_RESPONSE": "the server closed the connection without answering",
    "ERR_ABORTED": "the load was aborted (a download, or another navigation started)",
}

# (pattern in Playwright's message, error class, our message, next step)
_PATTERNS: tuple[tuple[str, type[BrowseError], str, str], ...] = (
    (
        "Target page, context or browser has been closed",
        Unavailable,
        "the tab or browser was closed while the command ran",
        "run `browse tabs` to see what is open, or `browse restart`",
    ),
    (
        "Browser has been closed",
        Unavailable,
        "the browser has closed",
        "run the command again: a fresh browser starts",
    ),
    (
        "Cannot navigate to invalid URL",
        UsageError,
        "that is not a URL a browser can load",
        "give a full URL such as http://localhost:3000/",
    ),
    (
        "Execution context was destroyed",
        PageError,
        "the page navigated away while the command ran",
        "run the command again on the new page",
    ),
    (
        "strict mode violation",
        PageError,
        "the selector matches more than one element",
        "make it more specific, or use a ref from `browse snapshot -i`",
    ),
    (
        "is not a valid selector",
        PageError,
        "the selector is not valid CSS",
        "check its syntax, or use a ref from `browse snapshot -i`",
    ),
    (
        "Unexpected token",
        PageError,
        "the selector is not valid",
        "check its syntax, or use a ref from `browse snapshot -i`",
    ),
)


def translate(exc: PlaywrightError, doing: str) -> BrowseError:
    """Our error for a Playwright exception raised while `doing` (e.g. "loading http://x")."""
    message = exc.message if hasattr(exc, "message") else str(exc)
    first_line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    if isinstance(exc, PlaywrightTimeout):
        return ActionTimeout(
            f"timed out {doing}: {first_line}",
            "raise the limit with --timeout MS, or check the page with `browse snapshot -i`",
        )
    net = _NET_ERROR.search(message)
    if net:
        code = net.group(1)
        reason = _NET_HINTS.get(code, "the page could not be loaded")
        return NavigationError(f"{doing} failed: {code}", reason)
    for pattern, cls, ours, hint in _PATTERNS:
        if pattern in message:
            return cls(f"{ours} ({doing})", hint)
    return PageError(f"failed {doing}: {first_line}", "check the page with `browse snapshot -i`")
