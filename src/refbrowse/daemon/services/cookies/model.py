"""The cookie shape every importer produces (`BrowserContext.add_cookies`), and domain matching."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

Cookie = dict[str, Any]
SAME_SITE = ("Strict", "Lax", "None")


def host_of(cookie: Mapping[str, object]) -> str:
    return str(cookie.get("domain", "")).lstrip(".").lower()


def sent_to(cookie: Cookie, domain: str) -> bool:
    """True when the cookie belongs to `domain`: its own, a parent's (`.example.com`), or a subdomain's."""
    wanted = domain.strip().lstrip(".").lower()
    host = host_of(cookie)
    is_domain_cookie = str(cookie.get("domain", "")).startswith(".")
    return host == wanted or host.endswith("." + wanted) or (is_domain_cookie and wanted.endswith("." + host))


def domains(cookies: Sequence[Mapping[str, object]]) -> str:
    names = sorted({host_of(c) for c in cookies})
    shown = ", ".join(names[:6])
    return shown + (f" and {len(names) - 6} more" if len(names) > 6 else "")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


async def add_cookies(context: BrowserContext, cookies: Sequence[Mapping[str, object]]) -> None:
    """`context.add_cookies` for our cookies: plain dicts of Playwright's cookie fields, checked by
    each importer, or the context's own cookies put back."""
    await context.add_cookies(list(cookies))  # type: ignore[arg-type] # our dicts hold SetCookieParam's fields
