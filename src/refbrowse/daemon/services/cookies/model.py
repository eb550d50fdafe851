"""The cookie shape every importer produces (`BrowserContext.add_cookies`), and domain matching."""

from __future__ import annotations

from typing import Any

Cookie = dict[str, Any]
SAME_SITE = ("Strict", "Lax", "None")


def host_of(cookie: Cookie) -> str:
    return str(cookie.get("domain", "")).lstrip(".").lower()


def sent_to(cookie: Cookie, domain: str) -> bool:
    """True when the cookie belongs to `domain`: its own, a parent's (`.example.com`), or a subdomain's."""
    wanted = domain.strip().lstrip(".").lower()
    host = host_of(cookie)
    is_domain_cookie = str(cookie.get("domain", "")).startswith(".")
    return host == wanted or host.endswith("." + wanted) or (is_domain_cookie and wanted.endswith("." + host))


def domains(cookies: list[Cookie]) -> str:
    names = sorted({host_of(c) for c in cookies})
    shown = ", ".join(names[:6])
    return shown + (f" and {len(names) - 6} more" if len(names) > 6 else "")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
