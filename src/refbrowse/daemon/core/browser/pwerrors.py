"""Playwright's exceptions → refbrowse's errors, in this one place.

Playwright for Python raises only `Error`, `TimeoutError` and
`TargetClosedError`; what went wrong is in the message text. The pre-checks in
the handlers avoid most failures; whatever must still be recognised from the
text is recognised here, against the pinned Playwright version (tests cover
each pattern).
"""

from __future__ import annotations

import os
import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from refbrowse.errors import (
    ActionTimeout,
    BrowseError,
    NavigationError,
    PageError,
    StaleRef,
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
    "ERR_BLOCKED_BY_CLIENT": "blocked by a `route` rule or BROWSE_ALLOWED_HOSTS (a redirect may go outside)",
}

TAB_OR_BROWSER_CLOSED = "the tab or browser was closed while the command ran"

# (pattern in Playwright's message, error class, our message, next step)
_PATTERNS: tuple[tuple[str, type[BrowseError], str, str], ...] = (
    (
        "Target page, context or browser has been closed",
        Unavailable,
        TAB_OR_BROWSER_CLOSED,
        "run `browse tabs` to see what is open, or `browse restart`",
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
        UsageError,
        "the selector is not valid CSS",
        "check its syntax, or use a ref from `browse snapshot -i`",
    ),
    (
        "Unknown key:",
        UsageError,
        "that is not a key name",
        "use a key such as Enter, Tab, Escape, ArrowDown, or a chord such as Control+A",
    ),
    (
        "Element is not an <input>",
        PageError,
        "the element is not a text field",
        "fill takes an input, a textarea or an editable element: find one with `browse snapshot -i`",
    ),
    (
        "Cannot type text into input[type=number]",
        UsageError,
        "that input takes a number only",
        "give a number",
    ),
    (
        'Input of type "file" cannot be filled',
        UsageError,
        "a file input cannot be filled with text",
        "use `browse upload SEL FILE`",
    ),
    (
        "Element is not a <select> element",
        PageError,
        "the element is not a <select>",
        "for a custom dropdown, click it and then click the option",
    ),
    (
        "Not a checkbox or radio button",
        PageError,
        "the element is not a checkbox or radio button",
        "use `browse click` for other toggles",
    ),
    (
        "Clicking the checkbox did not change its state",
        PageError,
        "clicking it did not change its state: the page's script keeps it as it was",
        "check the page with `browse snapshot -i`, or try `browse click`",
    ),
    (
        "Node is not an HTMLInputElement",
        PageError,
        "the element is not a file input",
        "upload takes an <input type=file>: find it with `browse snapshot -i`",
    ),
    (
        "Invalid frame in aria-ref selector",
        StaleRef,
        "the frame that ref belonged to is gone",
        "run `browse snapshot -i` to get current refs",
    ),
    (
        "Element is not attached to the DOM",
        StaleRef,
        "the element left the page during the action",
        "run `browse snapshot -i` to get current refs",
    ),
    (
        "Unexpected token",
        UsageError,
        "the selector is not valid",
        "check its syntax, or use a ref from `browse snapshot -i`",
    ),
)


def interrupted_by_navigation(exc: PlaywrightError) -> bool:
    """A load cut short because another navigation of the same tab started first.

    After a failed load Chromium commits its error page
    (`chrome-error://chromewebdata/`) a moment later, and a `goto` started in
    that moment is interrupted by it; so can a page that redirects by script.
    """
    return "is interrupted by another navigation" in exc.message


def unknown_devtools_method(exc: PlaywrightError) -> bool:
    """The browser's DevTools has no such method: an older browser, or a domain it leaves out."""
    return "wasn't found" in exc.message


def translate(exc: PlaywrightError, doing: str) -> BrowseError:
    """Our error for a Playwright exception raised while `doing` (e.g. "loading http://x")."""
    message = exc.message if hasattr(exc, "message") else str(exc)
    first_line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    if isinstance(exc, PlaywrightTimeout):
        return _timeout(message, first_line, doing)
    net = _NET_ERROR.search(message)
    if net:
        code = net.group(1)
        reason = _NET_HINTS.get(code, "the page could not be loaded")
        if code == "ERR_NAME_NOT_RESOLVED" and os.environ.get("BROWSE_ALLOWED_HOSTS"):
            reason += " (no host outside BROWSE_ALLOWED_HOSTS resolves: a redirect may have led to one)"
        return NavigationError(f"{doing} failed: {code}", reason)
    for pattern, cls, ours, hint in _PATTERNS:
        if pattern in message:
            return cls(f"{ours} ({doing})", hint)
    return PageError(
        f"failed {doing}: {_API_NAME.sub('', first_line)}", "check the page with `browse snapshot -i`"
    )


# What the call log of a timed-out action says was in the way, and the next step.
_WAITING_ON: tuple[tuple[str, str, str], ...] = (
    ("did not find some options", "no option has that value or label", "see the options: `browse forms`"),
    ("element is not visible", "the element stayed hidden", "make it visible first (open its menu?)"),
    ("element is not enabled", "the element stayed disabled", "fill the fields it depends on first"),
    ("element is not editable", "the element is read-only", "check it with `browse snapshot -i`"),
    ("element is not stable", "the element kept moving", "wait for the animation: `browse wait 500`"),
    (
        "element is outside of the viewport",
        "the element is outside the window, where no scroll brings it (a fixed popup taller than the window)",
        "enlarge the window so that it fits (`browse viewport 1280x1200`), then try again",
    ),
)
_INTERCEPTS = re.compile(r"- (<[^\n]{1,200}?) intercepts pointer events")


def _timeout(message: str, first_line: str, doing: str) -> ActionTimeout:
    cover = _INTERCEPTS.search(message)
    if cover:
        return ActionTimeout(
            f"timed out {doing}: {cover.group(1)} covers it",
            "deal with that overlay first (`browse snapshot -i` lists it at the top), or use --force",
        )
    for needle, reason, hint in _WAITING_ON:
        if needle in message:
            return ActionTimeout(f"timed out {doing}: {reason}", hint)
    return ActionTimeout(
        f"timed out {doing}{_plain_timeout(first_line)}",
        "raise the limit with --timeout MS, or check the page with `browse snapshot -i`",
    )


# "Locator.wait_for: ": Playwright's name for the call, which means nothing to an agent.
_API_NAME = re.compile(r"^[A-Za-z]+\.[A-Za-z_]+: ")
_LIMIT = re.compile(r"^Timeout (\d+)ms exceeded\.?$")


def _plain_timeout(first_line: str) -> str:
    """What Playwright's first line adds, in our words: " after 500 ms", or ": <its reason>"."""
    said = _API_NAME.sub("", first_line)
    limit = _LIMIT.match(said)
    return f" after {limit.group(1)} ms" if limit else f": {said}"
