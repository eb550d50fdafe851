"""Which browser a daemon drives: a local one (headless or headed) or a remote one.

A `BrowserTarget` is read from the environment when the daemon starts
(`BROWSE_HEADED`, `BROWSE_CDP_URL`, `BROWSE_WS_ENDPOINT`, `BROWSE_PROXY`) and
replaced at run time by `connect`, `disconnect`, `handoff` and `resume`. The
session module launches or connects to what it says. Remote endpoints may carry
credentials (Browserless's `?token=`, `user:pass@`), so they are only ever shown
through `redact`.

A target chosen at run time is remembered in `.refbrowse/browser.json` (0600,
like the daemon's token) until `disconnect` or `stop`: a daemon started after a
crash or a dropped remote goes back to the same browser. It is ignored once the
launch environment changes.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import sys
from dataclasses import asdict, dataclass, replace
from urllib.parse import unquote, urlsplit, urlunsplit

from refbrowse.protocol import config_hash, read_regular, state_path, write_private_file

log = logging.getLogger("refbrowse")

RUNTIME_FILE = "browser.json"

# Query parameters that hold a secret, in the forms grids and CDP services use.
_SECRET_PARAMS = ("token", "key", "apikey", "api_key", "secret", "password", "auth", "access_token")

# Where Playwright's `channel` finds a system browser, per channel.
CHANNEL_PATHS = {
    "chrome": (
        "/opt/google/chrome/chrome",
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        r"C:\Program Files\Google\Chrome\Application\chrome.exe",
    ),
    "msedge": (
        "/opt/microsoft/msedge/msedge",
        "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
        r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe",
    ),
}
CHANNEL_NAMES = {"chrome": "Google Chrome", "msedge": "Microsoft Edge"}


@dataclass(frozen=True, slots=True)
class BrowserTarget:
    headed: bool = False
    channel: str = ""  # "chrome" or "msedge": a system browser; "" is refbrowse's Chromium
    cdp_url: str = ""
    ws_endpoint: str = ""
    proxy: str = ""

    @property
    def remote(self) -> bool:
        return bool(self.cdp_url or self.ws_endpoint)

    @property
    def mode(self) -> str:
        """What `status` says: headed, headless or remote."""
        if self.remote:
            return "remote"
        return "headed" if self.headed else "headless"

    @property
    def endpoint(self) -> str:
        """The remote endpoint, redacted: the only form of it that is ever printed or logged."""
        return redact(self.cdp_url or self.ws_endpoint)

    def local(self, headed: bool, channel: str = "") -> BrowserTarget:
        """A local browser with this target's proxy."""
        return replace(self, headed=headed, channel=channel, cdp_url="", ws_endpoint="")


def from_env() -> BrowserTarget:
    return BrowserTarget(
        headed=os.environ.get("BROWSE_HEADED", "") not in ("", "0"),
        cdp_url=os.environ.get("BROWSE_CDP_URL", ""),
        ws_endpoint="" if os.environ.get("BROWSE_CDP_URL") else os.environ.get("BROWSE_WS_ENDPOINT", ""),
        proxy=os.environ.get("BROWSE_PROXY", ""),
    )


def redact(url: str) -> str:
    """`url` without the password of its user part and with secret query values replaced by ***."""
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, host = netloc.rsplit("@", 1)
            netloc = f"{userinfo.split(':', 1)[0]}:***@{host}" if userinfo else host
        query = "&".join(_redact_param(pair) for pair in parts.query.split("&")) if parts.query else ""
        path = _redact_path(parts.path)
        return urlunsplit((parts.scheme, netloc, path, query, ""))
    except ValueError:
        return "(an endpoint that is not a valid URL)"


_SECRET_IN_TEXT = re.compile(
    r"(?i)\b(" + "|".join(_SECRET_PARAMS) + r")=([^&\s\"']+)|(://[^/\s:@]*):([^/\s@]+)@"
)


def scrub(text: str) -> str:
    """Any endpoint inside `text` (an error from Playwright, a log line) with its secrets replaced."""
    return _SECRET_IN_TEXT.sub(lambda m: f"{m[1]}=***" if m[1] else f"{m[3]}:***@", text)


def _redact_param(pair: str) -> str:
    name, equals, _ = pair.partition("=")
    return f"{name}=***" if equals and _is_secret(unquote(name)) else pair


def _is_secret(name: str) -> bool:
    lowered = name.lower().replace("-", "_")
    return any(secret in lowered for secret in _SECRET_PARAMS)


def _redact_path(path: str) -> str:
    """Some services put the token in the path (`/devtools/browser/<id>` is not one: it is kept)."""
    segments = path.split("/")
    for i, segment in enumerate(segments[:-1]):
        if _is_secret(segment) and segments[i + 1]:
            segments[i + 1] = "***"
    return "/".join(segments)


def channel_path(channel: str) -> str:
    """The installed browser of a channel, or "" when there is none on this computer."""
    for path in CHANNEL_PATHS.get(channel, ()):
        if os.access(path, os.X_OK):
            return path
    name = {"chrome": "google-chrome", "msedge": "microsoft-edge"}.get(channel)
    if name and sys.platform.startswith("linux"):
        return shutil.which(name) or shutil.which(f"{name}-stable") or ""
    return ""


def remember(state_dir: str, target: BrowserTarget) -> None:
    """Keep a run-time choice of browser for the next daemon; the environment's own is not kept."""
    if target == from_env():
        forget(state_dir)
    else:
        record = {"config": config_hash(), **asdict(target)}
        write_private_file(state_path(state_dir, RUNTIME_FILE), json.dumps(record))


def recalled(state_dir: str) -> BrowserTarget | None:
    """The browser a previous daemon of this launch environment was switched to, if any."""
    try:
        record = json.loads(read_regular(state_path(state_dir, RUNTIME_FILE)))
        if record.get("config") != config_hash():
            return None
        text = {name: str(record[name]) for name in ("channel", "cdp_url", "ws_endpoint", "proxy")}
        return BrowserTarget(headed=bool(record["headed"]), **text)
    except (OSError, ValueError, KeyError, AttributeError):
        return None


def forget(state_dir: str) -> None:
    try:
        os.remove(state_path(state_dir, RUNTIME_FILE))
    except FileNotFoundError:
        return
