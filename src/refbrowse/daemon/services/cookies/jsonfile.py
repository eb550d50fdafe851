"""A JSON cookie file → cookies for `add_cookies`, checked entry by entry.

Accepts what Playwright writes (`expires`, `sameSite: "Lax"`, or a whole storage
state with a `cookies` list) and what cookie-export extensions write
(`expirationDate`, `hostOnly`, `session`, `sameSite: "no_restriction"`). The
first bad entry stops the import before anything reaches the browser.
"""

from __future__ import annotations

import json
from typing import Any

from refbrowse.daemon.services.cookies.model import SAME_SITE, Cookie

_EXTENSION_SAME_SITE = {"no_restriction": "None", "lax": "Lax", "strict": "Strict"}


class CookieFileError(ValueError):
    """The file, or one entry of it, is not a cookie Playwright could set."""


def cookies_in(text: str) -> list[Cookie]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CookieFileError(f"it is not valid JSON ({exc})") from exc
    if isinstance(data, dict) and isinstance(data.get("cookies"), list):
        data = data["cookies"]
    if not isinstance(data, list):
        raise CookieFileError("it must be a JSON array of cookie objects")
    return [_entry(i + 1, item) for i, item in enumerate(data)]


def _entry(number: int, item: object) -> Cookie:
    if not isinstance(item, dict):
        raise CookieFileError(f"entry {number} is not an object")
    name = item.get("name")
    label = f"entry {number} ({name})" if isinstance(name, str) and name else f"entry {number}"
    try:
        return _cookie(item)
    except CookieFileError as exc:
        raise CookieFileError(f"{label}: {exc}") from None


def _cookie(item: dict[str, Any]) -> Cookie:
    name, value = item.get("name"), item.get("value")
    if not isinstance(name, str) or not name:
        raise CookieFileError("'name' must be a non-empty string")
    if not isinstance(value, str):
        raise CookieFileError("'value' must be a string")
    cookie: Cookie = {"name": name, "value": value, **_where(item)}
    expires = _expires(item)
    if expires is not None:
        cookie["expires"] = expires
    for key in ("httpOnly", "secure"):
        if key in item:
            if not isinstance(item[key], bool):
                raise CookieFileError(f"'{key}' must be true or false")
            cookie[key] = item[key]
    same_site = _same_site(item.get("sameSite"))
    if same_site is not None:
        cookie["sameSite"] = same_site
    if same_site == "None" and not cookie.get("secure"):
        raise CookieFileError("'sameSite': 'None' needs 'secure': true (browsers refuse it otherwise)")
    return cookie


def _where(item: dict[str, Any]) -> Cookie:
    domain, url, path = item.get("domain"), item.get("url"), item.get("path", "/")
    if isinstance(url, str) and url and not domain:
        if not url.startswith(("http://", "https://")):
            raise CookieFileError(f"'url' must be an http(s) URL, got {url!r}")
        return {"url": url}
    if not isinstance(domain, str) or not domain.strip("."):
        raise CookieFileError("needs a 'domain' (or a 'url')")
    if not isinstance(path, str) or not path.startswith("/"):
        raise CookieFileError(f"'path' must start with '/', got {path!r}")
    host_only = item.get("hostOnly")
    if host_only is True:
        domain = domain.lstrip(".")
    elif host_only is False and not domain.startswith("."):
        domain = "." + domain
    return {"domain": domain, "path": path}


def _expires(item: dict[str, Any]) -> float | None:
    if item.get("session") is True:
        return None
    raw = item.get("expires", item.get("expirationDate"))
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise CookieFileError(f"'expires' must be seconds since 1970 (a number), got {raw!r}")
    return None if raw < 0 else float(raw)


def _same_site(raw: object) -> str | None:
    if raw is None or raw == "unspecified":
        return None
    if raw in SAME_SITE:
        return str(raw)
    if isinstance(raw, str) and raw.lower() in _EXTENSION_SAME_SITE:
        return _EXTENSION_SAME_SITE[raw.lower()]
    raise CookieFileError(f"'sameSite' must be Strict, Lax or None, got {raw!r}")
