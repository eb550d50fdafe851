"""Cookies of a Chromium-family profile (Chrome, Chromium, Brave, Edge), decrypted."""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from pathlib import Path

from refbrowse.cookies import sqlite
from refbrowse.cookies.crypto import DecryptError, decrypt
from refbrowse.cookies.keys import KeyUnavailable, key_for
from refbrowse.cookies.model import Cookie
from refbrowse.cookies.profiles import BrowserKind

WINDOWS_EPOCH_OFFSET_S = 11_644_473_600  # 1601-01-01 to 1970-01-01
_SAME_SITE = {0: "None", 1: "Lax", 2: "Strict"}


def read(browser: BrowserKind, db: Path) -> tuple[list[Cookie], Counter[str]]:
    """The profile's live cookies, and how many failed for each reason."""
    version_rows = sqlite.query(db, "SELECT value FROM meta WHERE key = 'version'")
    version = int(version_rows[0]["value"]) if version_rows else 0
    rows = sqlite.query(db, "SELECT * FROM cookies")
    cookies: list[Cookie] = []
    failures: Counter[str] = Counter()
    now = time.time()
    for row in rows:
        try:
            cookie = _cookie(browser, row, version)
        except (DecryptError, KeyUnavailable) as exc:
            failures[f"{bytes(row['encrypted_value'])[:3].decode(errors='replace')}: {exc}"] += 1
            continue
        if cookie.get("expires", -1) == -1 or cookie["expires"] > now:
            cookies.append(cookie)
    return cookies, failures


def _cookie(browser: BrowserKind, row: sqlite3.Row, version: int) -> Cookie:
    host = str(row["host_key"])
    cookie: Cookie = {
        "name": str(row["name"]),
        "value": _value(browser, row, host, version),
        "domain": host,
        "path": str(row["path"] or "/"),
        "secure": bool(row["is_secure"]),
        "httpOnly": bool(row["is_httponly"]),
    }
    if _persistent(row) and row["expires_utc"]:
        cookie["expires"] = row["expires_utc"] / 1_000_000 - WINDOWS_EPOCH_OFFSET_S
    has_same_site = "samesite" in row.keys()  # noqa: SIM118 - `in row` would look at the values
    same_site = _SAME_SITE.get(int(row["samesite"]) if has_same_site else -1)
    if same_site is not None and (same_site != "None" or cookie["secure"]):
        cookie["sameSite"] = same_site
    return cookie


def _persistent(row: sqlite3.Row) -> bool:
    keys = row.keys()
    flag = "is_persistent" if "is_persistent" in keys else "has_expires" if "has_expires" in keys else None
    return bool(row[flag]) if flag else True


def _value(browser: BrowserKind, row: sqlite3.Row, host: str, version: int) -> str:
    encrypted = bytes(row["encrypted_value"] or b"")
    prefix = encrypted[:3].decode("ascii", errors="replace")
    if prefix in ("v10", "v11"):
        key = key_for(prefix, browser.keyring_app, browser.keychain)
        return decrypt(encrypted, key, host, version)
    if encrypted:
        raise DecryptError(f"unknown encryption {prefix!r}")
    return str(row["value"] or "")
