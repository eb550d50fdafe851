"""Inspect what a page holds: `cookies` (and set or clear them), `storage`, `perf`, `accessibility`, `tables`.

All of it is set or written by the site, so every listing is fenced.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from typing import Any, Literal
from urllib.parse import urlsplit

from playwright._impl._api_structures import SetCookieParam
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.page.resolver import evaluate_all, resolve
from refbrowse.errors import PageError, UsageError

SHORT = 40  # characters of a cookie value shown


def shorten(value: str, limit: int = SHORT) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def describe_cookie(cookie: Any) -> str:
    flags = [flag for flag in ("httpOnly", "secure") if cookie.get(flag)]
    if cookie.get("sameSite"):
        flags.append(f"sameSite={cookie['sameSite']}")
    expires = cookie.get("expires", -1)
    when = "session" if expires is None or expires < 0 else time.strftime("%Y-%m-%d", time.gmtime(expires))
    details = ", ".join([f"{cookie['domain']}{cookie['path']}", f"expires {when}", *flags])
    return f"{cookie['name']}={shorten(cookie['value'])}  ({details})"


@handler("cookies")
async def cookies(call: Call) -> str:
    if call.arg(0) == "set":
        return await _set_cookie(call)
    if call.arg(0) == "clear":
        return await _clear_cookies(call)
    url = call.page.url
    found = await call.session.context.cookies(url) if url.startswith("http") else []
    text = "\n".join(describe_cookie(c) for c in found) if found else "(no cookies)"
    return fence(text, url, call.raw)


async def _set_cookie(call: Call) -> str:
    name, value = str(call.args[1]), str(call.args[2])
    cookie: SetCookieParam = {
        "name": name,
        "value": value,
        "domain": call.flag("--domain") or _page_host(call),
        "path": call.flag("--path") or "/",
        "httpOnly": bool(call.flag("--httponly")),
        "secure": bool(call.flag("--secure")),
    }
    if call.flag("--expires") is not None:
        cookie["expires"] = float(call.flag("--expires"))
    if call.flag("--samesite"):
        cookie["sameSite"] = _SAME_SITE[call.flag("--samesite")]
    try:
        await call.session.context.add_cookies([cookie])
    except PlaywrightError as exc:
        raise PageError(f"the browser refused the cookie {name}: {exc.message}", "check its flags") from exc
    where = f"{cookie['domain']}{cookie['path']}"
    return Reply(f"Set cookie {name} ({len(value)} characters) for {where}", {"name": name, "where": where})


_SAME_SITE: dict[str, Literal["Strict", "Lax", "None"]] = {"strict": "Strict", "lax": "Lax", "none": "None"}


def _page_host(call: Call) -> str:
    host = urlsplit(call.page.url).hostname
    if not call.page.url.startswith("http") or not host:
        raise UsageError(
            f"cookies set needs --domain on {call.page.url}",
            "open the site first, or give --domain example.com",
        )
    return host


async def _clear_cookies(call: Call) -> str:
    context, domain = call.session.context, call.flag("--domain")
    before = len(await context.cookies())
    if domain:
        await context.clear_cookies(domain=re.compile(r"^\.?" + re.escape(str(domain).lstrip(".")) + "$"))
    else:
        await context.clear_cookies()
    gone = before - len(await context.cookies())
    scope = f" of {domain}" if domain else ""
    return Reply(f"Cleared {gone} cookie{'s' if gone != 1 else ''}{scope}", {"cleared": gone})


_STORAGE_JS = script("storage")


@handler("storage")
async def storage(call: Call) -> str:
    if call.args:
        return await _set_item(call)
    found = await call.page.evaluate(_STORAGE_JS)
    blocks = [
        _storage_block(title, found[key])
        for key, title in (("local", "localStorage"), ("session", "sessionStorage"))
    ]
    return fence("\n\n".join(blocks), call.page.url, call.raw)


def _storage_block(title: str, items: dict[str, str] | None) -> str:
    if items is None:
        return f"{title}: (not available on this page)"
    lines = [f"  {key} = {shorten(value, 200)}" for key, value in sorted(items.items())]
    return "\n".join([f"{title}: {len(items)} items", *lines])


async def _set_item(call: Call) -> str:
    key, value = call.args[1], call.args[2]
    await call.page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
    return f"Set localStorage {key!r} on {call.page.url}"


_PERF_JS = script("perf")


@handler("perf")
async def perf(call: Call) -> str:
    timings = await call.page.evaluate(_PERF_JS)
    if not timings:
        raise PageError(
            f"{call.page.url} has no navigation timing", "load a page with `browse goto URL` first"
        )
    lines = [f"{name:<11} {round(ms):>6} ms" for name, ms in timings]
    if timings[-1][1] == 0:
        lines.append("(the page has not finished loading: load and total are 0)")
    return "\n".join(lines)


@handler("accessibility")
async def accessibility(call: Call) -> str:
    cdp = await call.session.context.new_cdp_session(call.page)
    try:
        tree = await cdp.send("Accessibility.getFullAXTree")
    finally:
        await cdp.detach()
    return fence(render_ax_tree(tree["nodes"]), call.page.url, call.raw)


def render_ax_tree(nodes: list[dict[str, Any]]) -> str:
    """One line per node the tree does not ignore, indented by depth."""
    by_id = {node["nodeId"]: node for node in nodes}
    roots = [n for n in nodes if not n.get("parentId") or n["parentId"] not in by_id]
    lines: list[str] = []
    stack = [(root, 0) for root in reversed(roots)]
    while stack:
        node, depth = stack.pop()
        # Inline text boxes are layout fragments of the StaticText above them.
        shown = not node.get("ignored") and node.get("role", {}).get("value") != "InlineTextBox"
        if shown:
            lines.append("  " * depth + _ax_line(node))
        children = [by_id[c] for c in node.get("childIds", []) if c in by_id]
        stack.extend((child, depth + shown) for child in reversed(children))
    return "\n".join(lines) or "(empty accessibility tree)"


def _ax_line(node: dict[str, Any]) -> str:
    role = node.get("role", {}).get("value", "unknown")
    name = node.get("name", {}).get("value", "")
    parts = [str(role)] + ([json.dumps(name, ensure_ascii=False)] if name else [])
    value = node.get("value", {}).get("value")
    if value not in (None, ""):
        parts.append(f"value={json.dumps(value, ensure_ascii=False)}")
    for prop in node.get("properties", []):
        shown = prop.get("value", {}).get("value")
        if shown not in (None, False, "", "false") and prop["name"] not in ("focusable", "readonly"):
            parts.append(prop["name"] if shown is True or shown == "true" else f"{prop['name']}={shown}")
    return " ".join(parts)


# A selector may name a table (an ARIA grid or table too) or an element holding tables. A cell's
# text keeps the alt text of its images (a "Paid" column of check-mark icons). Data tables (headers,
# several columns, no nested tables) come before layout and navigation tables.
_TABLES_JS = script("tables")


@handler("tables")
async def tables(call: Call) -> str:
    selector = call.arg(0)
    everywhere = "table, [role=grid], [role=table], [role=treegrid]"
    locator = await resolve(call.tab, selector) if selector else call.page.locator(everywhere)
    found: list[list[list[str]]] = await evaluate_all(locator, _TABLES_JS)
    if selector and not found:
        raise PageError(f"{selector!r} has no table", "give a selector of a <table>, or none for all tables")
    if call.json:
        return fence(json.dumps(found, indent=2, ensure_ascii=False), call.page.url, call.raw)
    text = "\n\n".join(_csv(rows) for rows in found) if found else "(no tables)"
    return fence(text, call.page.url, call.raw)


def _csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().rstrip("\n")
