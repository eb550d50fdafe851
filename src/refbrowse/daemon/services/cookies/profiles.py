"""The browsers we know, where each keeps its profiles, and which profile to read.

The list and its paths are fixed here on purpose: a profile name from the user
only ever picks a directory inside one of these roots. Linux follows
`XDG_CONFIG_HOME` as the browsers themselves do.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from refbrowse.errors import BrowseError, UsageError


@dataclass(frozen=True, slots=True)
class BrowserKind:
    key: str
    title: str
    family: str  # "chromium" or "firefox"
    linux: tuple[str, ...]  # under the config home (or ~ for firefox)
    mac: str  # under ~/Library/Application Support
    keyring_app: str = ""  # Secret Service `application` attribute (Linux v11)
    keychain: tuple[str, str] = ("", "")  # Keychain (service, account) on macOS


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    cookie_db: Path


BROWSERS = (
    BrowserKind(
        "chrome", "Google Chrome", "chromium", ("google-chrome",), "Google/Chrome",
        "chrome", ("Chrome Safe Storage", "Chrome"),
    ),
    BrowserKind(
        "chromium", "Chromium", "chromium", ("chromium",), "Chromium",
        "chromium", ("Chromium Safe Storage", "Chromium"),
    ),
    BrowserKind(
        "brave", "Brave", "chromium", ("BraveSoftware/Brave-Browser",), "BraveSoftware/Brave-Browser",
        "brave", ("Brave Safe Storage", "Brave"),
    ),
    BrowserKind(
        "edge", "Microsoft Edge", "chromium", ("microsoft-edge",), "Microsoft Edge",
        "chromium", ("Microsoft Edge Safe Storage", "Microsoft Edge"),
    ),
    BrowserKind(
        "firefox", "Firefox", "firefox", (".mozilla/firefox", "snap/firefox/common/.mozilla/firefox"),
        "Firefox/Profiles",
    ),
)  # fmt: skip


def kind(key: str) -> BrowserKind:
    for browser in BROWSERS:
        if browser.key == key.lower():
            return browser
    raise UsageError(f"unknown browser: {key}", f"use one of: {', '.join(b.key for b in BROWSERS)}")


def roots(browser: BrowserKind) -> list[Path]:
    home = Path.home()
    if sys.platform == "darwin":
        return [home / "Library" / "Application Support" / browser.mac]
    if browser.family == "firefox":
        return [home / sub for sub in browser.linux]
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    return [config / sub for sub in browser.linux]


def profiles(browser: BrowserKind) -> list[Profile]:
    """Profiles that have a cookie database, the default one first."""
    found = []
    for root in roots(browser):
        if not root.is_dir():
            continue
        for entry in sorted(root.iterdir()):
            db = _cookie_db(browser, entry)
            if db is not None:
                found.append(Profile(entry.name, db))
    return sorted(found, key=lambda p: _default_rank(browser, p.name))


def _cookie_db(browser: BrowserKind, folder: Path) -> Path | None:
    names = ("cookies.sqlite",) if browser.family == "firefox" else ("Network/Cookies", "Cookies")
    for name in names:
        if (folder / name).is_file():
            return folder / name
    return None


def _default_rank(browser: BrowserKind, name: str) -> int:
    if browser.family == "firefox":
        return 0 if name.endswith(".default-release") else 1 if ".default" in name else 2
    return 0 if name == "Default" else 1


def check_profile_name(name: str) -> str:
    if not name or "/" in name or "\\" in name or ".." in name or "\0" in name:
        raise UsageError(
            f"bad profile name: {name!r}",
            "give a profile directory name such as Default or 'Profile 1' (see --list)",
        )
    return name


def pick(browser_key: str | None, profile: str | None) -> tuple[BrowserKind, Profile]:
    """The browser (the first installed one if not named) and its profile (its default if not named)."""
    if profile is not None:
        check_profile_name(profile)
    candidates = [kind(browser_key)] if browser_key else list(BROWSERS)
    for browser in candidates:
        found = profiles(browser)
        if not found:
            continue
        if profile is None:
            return browser, found[0]
        for p in found:
            if p.name == profile:
                return browser, p
        names = ", ".join(p.name for p in found)
        raise BrowseError(f"{browser.title} has no profile {profile!r}", f"its profiles: {names}")
    where = ", ".join(str(r) for b in candidates for r in roots(b))
    hint = "run `browse cookie-import-browser --list` to see what is installed"
    raise BrowseError(f"no browser profile with cookies found (looked in {where})", hint)
