"""`cookie-import FILE` and `cookie-import-browser`: bring a login in from outside.

A cookie file is all or nothing (`add_all`: if the browser refuses one entry,
the session's cookies are put back as they were and the entry is named). A
browser profile is taken as it is (`add_each`): a cookie that cannot be
decrypted, read or added is skipped, counted and named, and the rest come in. Outputs name counts and
domains, never a cookie value.
"""

from __future__ import annotations

import asyncio

from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.io.nofollow import read_resolved
from refbrowse.daemon.services.cookies.jsonfile import CookieFileError, cookies_in
from refbrowse.daemon.services.cookies.model import Cookie, add_cookies, domains, plural, sent_to
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG
from refbrowse.errors import BrowseError, UsageError

MAX_FILE_BYTES = 16 * 1024 * 1024


@handler("cookie-import")
async def cookie_import(call: Call) -> str:
    path = call.args[0]
    policy = call.services.policy
    real = policy.input_path(path, call.flag(ALLOW_PATH_FLAG))
    text = await asyncio.to_thread(_read, real, path)
    try:
        cookies = cookies_in(text)
    except CookieFileError as exc:
        raise UsageError(f"{path}: {exc}", "nothing was imported; fix that entry and run it again") from exc
    if not cookies:
        return f"{path} holds no cookies: nothing imported"
    await add_all(call.session.context, cookies)
    counted = plural(len(cookies), "cookie")
    return f"Imported {counted} into session {call.session.name} for {domains(cookies)}"


def _read(real: str, path: str) -> str:
    try:
        data = read_resolved(real, MAX_FILE_BYTES)
        if len(data) > MAX_FILE_BYTES:
            raise UsageError(f"{path} is larger than 16 MB", "give a JSON export of cookies")
        return data.decode("utf-8")
    except OSError as exc:
        said = exc.strerror or str(exc)  # the reason alone: the message names the path once already
        raise UsageError(f"cannot read {path}: {said}", "give the path of a JSON cookie file") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"cannot read {path}: it is not UTF-8 text", "give a JSON export of cookies"
        ) from exc


async def add_all(context: BrowserContext, cookies: list[Cookie]) -> None:
    """Add every cookie or, if the browser refuses one, none (the old ones are put back)."""
    before = await context.cookies()
    try:
        await add_cookies(context, cookies)
    except PlaywrightError as exc:
        await context.clear_cookies()
        if before:
            await add_cookies(context, before)
        which = await _first_refused(context, cookies)
        reason = exc.message.splitlines()[0] if exc.message else "no reason given"
        raise BrowseError(
            f"the browser refused {which}: {reason}", "nothing was imported; fix that cookie and run it again"
        ) from exc


async def _first_refused(context: BrowserContext, cookies: list[Cookie]) -> str:
    """Name the cookie the browser refuses, found in a scratch context so the session stays untouched."""
    if context.browser is None:
        return "the cookies"
    scratch = await context.browser.new_context()
    try:
        for number, cookie in enumerate(cookies, 1):
            try:
                await add_cookies(scratch, [cookie])
            except PlaywrightError:
                where = cookie.get("domain") or cookie.get("url")
                return f"entry {number} ({cookie.get('name')} for {where})"
    finally:
        await scratch.close()
    return "the cookies"


@handler("cookie-import-browser")
async def cookie_import_browser(call: Call) -> str:
    profile = call.flag("--profile")
    domain = call.flag("--domain")
    # imported here: reading a browser's cookie store loads sqlite3 and cryptography (~20 ms)
    from refbrowse.daemon.services.cookies.browsers import describe_installed, read_cookies

    if call.flag("--list"):
        return await asyncio.to_thread(describe_installed)
    found = await asyncio.to_thread(read_cookies, call.arg(0), profile if isinstance(profile, str) else None)
    wanted = [c for c in found.cookies if not isinstance(domain, str) or sent_to(c, domain)]
    refused = await add_each(call.session.context, wanted) if wanted else []
    report = found.report(len(wanted) - len(refused), domain if isinstance(domain, str) else None)
    if refused:
        names = ", ".join(sorted({f"{c.get('name')} for {c.get('domain')}" for c in refused})[:5])
        report += f"\n{plural(len(refused), 'cookie')} refused by the browser (not imported): {names}"
    return report


async def add_each(context: BrowserContext, cookies: list[Cookie]) -> list[Cookie]:
    """Add what the browser takes: all at once, else one by one; return the cookies it refused.

    A profile is imported as it is, so one cookie the browser will not take
    (an odd value, a bad domain) costs only itself.
    """
    try:
        await add_cookies(context, cookies)
        return []
    except PlaywrightError:
        pass
    refused = []
    for cookie in cookies:
        try:
            await add_cookies(context, [cookie])
        except PlaywrightError:
            refused.append(cookie)
    return refused
