"""Cookies of a Chromium-family profile (Chrome, Chromium, Brave, Edge), decrypted."""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from pathlib import Path

from refbrowse.daemon.services.cookies import sqlite
from refbrowse.daemon.services.cookies.crypto import LINUX_ITERATIONS, DecryptError, decrypt, derive_key
from refbrowse.daemon.services.cookies.keys import KeyUnavailable, key_for
from refbrowse.daemon.services.cookies.model import Cookie
from refbrowse.daemon.services.cookies.profiles import BrowserKind

WINDOWS_EPOCH_OFFSET_S = 11_644_473_600  # 1601-01-01 to 1970-01-01
_SAME_SITE = {0: "None", 1: "Lax", 2: "Strict"}
# Chromium on Linux falls back to an empty password when the keyring gave none.
_EMPTY_KEY = derive_key(b"", LINUX_ITERATIONS)


class _Keys:
    """The keys of one import: each asked for once, a refusal remembered (no prompt per cookie)."""

    def __init__(self, browser: BrowserKind) -> None:
        self.browser = browser
        self._found: dict[str, bytes | KeyUnavailable] = {}

    def candidates(self, prefix: str) -> tuple[list[bytes], KeyUnavailable | None]:
        if prefix not in self._found:
            try:
                self._found[prefix] = key_for(prefix, self.browser.keyring_app, self.browser.keychain)
            except KeyUnavailable as exc:
                self._found[prefix] = exc
        found = self._found[prefix]
        if isinstance(found, KeyUnavailable):
            return [_EMPTY_KEY], found
        return [found, _EMPTY_KEY], None


def read(browser: BrowserKind, db: Path) -> tuple[list[Cookie], Counter[str]]:
    """The profile's live cookies, and how many failed for each reason."""
    meta, rows = sqlite.query(db, "SELECT value FROM meta WHERE key = 'version'", "SELECT * FROM cookies")
    version = int(meta[0]["value"]) if meta else 0
    keys = _Keys(browser)
    cookies: list[Cookie] = []
    failures: Counter[str] = Counter()
    now = time.time()
    for row in rows:
        try:
            cookie = _cookie(keys, row, version)
        except (DecryptError, KeyUnavailable) as exc:
            failures[f"{_prefix(row)}: {exc}"] += 1
            continue
        except (ValueError, TypeError, OverflowError) as exc:
            # One odd row (a value stored as text, a date out of range) never stops the rest.
            failures[f"unreadable row ({type(exc).__name__})"] += 1
            continue
        if cookie.get("expires", -1) == -1 or cookie["expires"] > now:
            cookies.append(cookie)
    return cookies, failures


def _prefix(row: sqlite3.Row) -> str:
    value = row["encrypted_value"]
    return bytes(value)[:3].decode(errors="replace") if isinstance(value, bytes) else "?"


def _cookie(keys: _Keys, row: sqlite3.Row, version: int) -> Cookie:
    host = str(row["host_key"])
    cookie: Cookie = {
        "name": str(row["name"]),
        "value": _value(keys, row, host, version),
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


def _value(keys: _Keys, row: sqlite3.Row, host: str, version: int) -> str:
    encrypted = bytes(row["encrypted_value"] or b"")
    prefix = encrypted[:3].decode("ascii", errors="replace")
    if prefix not in ("v10", "v11"):
        if encrypted:
            raise DecryptError(f"unknown encryption {prefix!r}")
        return str(row["value"] or "")
    candidates, unavailable = keys.candidates(prefix)
    first_error: DecryptError | None = None
    for key in candidates:
        try:
            return decrypt(encrypted, key, host, version)
        except DecryptError as exc:
            first_error = first_error or exc
    if unavailable is not None:
        raise unavailable
    assert first_error is not None
    raise first_error
