"""Find a Chromium to drive, and the flags to launch it with.

Order: `BROWSE_CHROMIUM_PATH`; Playwright's own downloaded browser; a system
Chromium or Chrome. `python -m refbrowse.daemon.core.browser.chromium` prints the path found, or
says how to get one and exits 3. `browse install` (`refbrowse.setup.install`) builds on this.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys
from urllib.parse import urlsplit

from refbrowse.exitcodes import ExitCode

INSTALL_HINT = (
    "run `browse install` (it finds or installs one, or prints the command for this system); "
    "or point BROWSE_CHROMIUM_PATH at a Chromium or Chrome binary"
)

SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
MAC_APPS = (
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
)
PLAYWRIGHT_LAYOUTS = (
    "chromium-*/chrome-linux*/chrome",
    "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
    "chromium-*/chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
)

QUIET_FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)


# A named browser that is not one: installing another would not help, the daemon launches that path.
OVERRIDE_HINT = (
    "point BROWSE_CHROMIUM_PATH at a Chromium or Chrome binary,"
    " or unset it to use the one `browse install` finds"
)


class ChromiumNotFound(Exception):
    """No browser to launch; `hint` is the one next step (the same in doctor, install and the daemon)."""

    def __init__(self, message: str, hint: str = INSTALL_HINT) -> None:
        super().__init__(message)
        self.hint = hint


def find_chromium() -> str:
    override = os.environ.get("BROWSE_CHROMIUM_PATH")
    if override:
        if os.access(override, os.X_OK):
            return override
        raise ChromiumNotFound(f"BROWSE_CHROMIUM_PATH={override} is not an executable file", OVERRIDE_HINT)
    for candidate in _playwright_browsers() + _system_browsers():
        if os.access(candidate, os.X_OK):
            return candidate
    raise ChromiumNotFound("no Chromium or Chrome found on this computer")


def _playwright_browsers() -> list[str]:
    root = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or os.path.expanduser("~/.cache/ms-playwright")
    found: list[str] = []
    for layout in PLAYWRIGHT_LAYOUTS:
        found += glob.glob(os.path.join(root, layout))
    return sorted(found, reverse=True)


def _system_browsers() -> list[str]:
    found = [path for name in SYSTEM_NAMES if (path := shutil.which(name))]
    return found + [app for app in MAC_APPS if os.path.exists(app)]


# Playwright's own `--disable-features` list (chromiumSwitches.ts of the pinned version; a unit test
# compares it with the installed driver's). Chromium reads only the last `--disable-features` switch,
# and ours comes after Playwright's, so it must repeat that list.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
# Chromium opens the omnibox's popups as web pages (in a renderer of their own) with every new
# window, headless ones too: a renderer starting beside a session's first tab on a cold start, for
# a popup no one sees. A headed window keeps them: a person may type in its address bar.
HEADLESS_DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")

# Playwright's own `--enable-features` list (chromiumSwitches.ts of the pinned version; a unit test
# compares it with the installed driver's): like `--disable-features`, only the last switch counts.
PLAYWRIGHT_ENABLED_FEATURES = ("CDPScreenshotNewSurface", "SkipListAccountsWithoutGaiaCookies")
# Pages' own tools for agents (`document.modelContext`, the DevTools `WebMCP` domain): Chromium
# has them behind this feature. `BROWSE_WEBMCP=0` launches without it.
WEBMCP_FEATURE = "WebMCP"
WEBMCP_ENV = "BROWSE_WEBMCP"


def webmcp_wanted() -> bool:
    return os.environ.get(WEBMCP_ENV, "1") != "0"


# Playwright's defaults that are left out: Chromium's own IPC flooding protection throttles a
# page's `history.pushState` flood (else thousands of events a second through the one driver,
# for every session), as it does in a browser people use.
LEFT_OUT_DEFAULTS = ("--disable-ipc-flooding-protection",)


def launch_flags(headed: bool = False) -> list[str]:
    flags = list(QUIET_FLAGS)
    if not headed:
        disabled = PLAYWRIGHT_DISABLED_FEATURES + HEADLESS_DISABLED_FEATURES
        flags.append("--disable-features=" + ",".join(disabled))
    if webmcp_wanted():
        flags.append("--enable-features=" + ",".join((*PLAYWRIGHT_ENABLED_FEATURES, WEBMCP_FEATURE)))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")
    return flags + host_rules()


# WebRTC sends UDP (STUN, TURN, a peer's candidates) to addresses the resolver never sees; with this
# policy it sends none outside a proxy, and its TCP goes through the network stack, resolver rules and all.
WEBRTC_NO_UDP = "--webrtc-ip-handling-policy=disable_non_proxied_udp"


def host_rules() -> list[str]:
    """With `BROWSE_ALLOWED_HOSTS`, a resolver that finds no other host, in the browser's own network stack.

    The daemon's request route sees only the first request of a redirect chain
    and no WebSocket; a host the resolver cannot find is never reached, at any
    hop, by any kind of connection, at no cost per request. The proxy's own host
    stays reachable. WebRTC is held to TCP, which passes the resolver (its UDP
    would not).
    """
    allowed = [part.strip() for part in os.environ.get("BROWSE_ALLOWED_HOSTS", "").split(",") if part.strip()]
    if not allowed:
        return []
    proxy = os.environ.get("BROWSE_PROXY", "")
    proxy_host = urlsplit(proxy if "://" in proxy else f"http://{proxy}").hostname if proxy else None
    excluded = allowed + ([proxy_host] if proxy_host else [])
    rules = "--host-resolver-rules=MAP * ~NOTFOUND, " + ", ".join(f"EXCLUDE {host}" for host in excluded)
    return [rules, WEBRTC_NO_UDP]


def main() -> int:
    try:
        print(find_chromium())
    except ChromiumNotFound as exc:
        print(f"{exc}; {exc.hint}", file=sys.stderr)
        return ExitCode.UNAVAILABLE
    return ExitCode.OK


if __name__ == "__main__":
    raise SystemExit(main())
