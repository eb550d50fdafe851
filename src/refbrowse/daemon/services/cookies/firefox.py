"""Cookies of a Firefox profile: `cookies.sqlite` keeps values in plain text."""

from __future__ import annotations

import time
from pathlib import Path

from refbrowse.daemon.services.cookies import sqlite
from refbrowse.daemon.services.cookies.model import Cookie

_SAME_SITE = {1: "Lax", 2: "Strict"}  # 0 is None or unset: leave it to the browser's default
_MS_THRESHOLD = 100_000_000_000  # newer Firefox stores expiry in milliseconds


def read(db: Path) -> list[Cookie]:
    [rows] = sqlite.query(
        db, "SELECT host, name, value, path, expiry, isSecure, isHttpOnly, sameSite FROM moz_cookies"
    )
    now = time.time()
    cookies = []
    for row in rows:
        expiry = float(row["expiry"] or 0)
        expires = expiry / 1000 if expiry > _MS_THRESHOLD else expiry
        if expires and expires < now:
            continue
        cookie: Cookie = {
            "name": str(row["name"]),
            "value": str(row["value"] or ""),
            "domain": str(row["host"]),
            "path": str(row["path"] or "/"),
            "secure": bool(row["isSecure"]),
            "httpOnly": bool(row["isHttpOnly"]),
        }
        if expires:
            cookie["expires"] = expires
        same_site = _SAME_SITE.get(int(row["sameSite"] or 0))
        if same_site:
            cookie["sameSite"] = same_site
        cookies.append(cookie)
    return cookies
