"""`route`: rules that answer, block or delay a session's requests, and what they did.

A rule is plain JSON (kept by `sessionsettings`): a URL pattern (a Playwright
glob, or `/regex/flags`) and what to do with a matching request. Each rule is
one `context.route` handler that counts its hits and logs them, so `routes`
shows the counts and an action's report names the requests a route answered
(`request GET /api/items answered by route **/api/* (200)`). A rule with `har`
answers from a HAR file's recorded responses, matched by method and URL, and
lets the others through. A glob names a URL by its path, not its query
(`routeglob`). A request the host policy refuses is neither delayed nor
said to be: it is refused after the rules, and a rule only answers or blocks it.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import itertools
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Request, Route

from refbrowse.checks import url_regex
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.routeglob import glob_names
from refbrowse.daemon.services.sessionsettings import Family, Value
from refbrowse.errors import UsageError

log = logging.getLogger("refbrowse")

REPORT_LIMIT = 6  # requests named in one action's report; the rest are counted
HIT_LOG = 500  # hits remembered per session for the reports

Rule = dict[str, Any]  # {pattern, status, body (base64), content_type, headers, abort, delay_ms, times, har}


def url_matcher(pattern: str) -> str | re.Pattern[str]:
    """What `context.route` takes for a pattern: `/…/flags` is a regular expression, else a glob."""
    return url_regex(pattern) or pattern


@dataclass(slots=True)
class Hit:
    seq: int
    method: str
    url: str
    pattern: str
    outcome: tuple[str, str]  # ("answered", " (200)"), ("blocked", ""), ("delayed 500 ms", "")


@dataclass(slots=True)
class ActiveRoute:
    rule: Rule
    matcher: str | re.Pattern[str]
    handler: Callable[[Route], Awaitable[None]]
    hits: int = 0
    recorded: dict[tuple[str, str], dict[str, Any]] = field(
        default_factory=dict
    )  # HAR: (method, url) -> entry


class Routes(Family):
    """The `routes` family: a list of rules per session, newest last."""

    key = "routes"

    def __init__(self, refused: Callable[[str], bool] = lambda url: False) -> None:
        self._refused = refused  # the host policy: a request it refuses never reaches the network
        self.active: dict[str, list[ActiveRoute]] = {}
        self._hits: dict[str, collections.deque[Hit]] = {}
        self._seq = itertools.count(1)

    async def on_context(self, session: Session, value: Value) -> None:
        counts: dict[str, int] = {}  # a rule kept through a change keeps its count
        for old in self.active.pop(session.name, []):
            counts[_identity(old.rule)] = old.hits
            await session.context.unroute(old.matcher, old.handler)
        routes = []
        for rule in value or []:
            route = self._build(session.name, rule, counts.get(_identity(rule), 0))
            await session.context.route(route.matcher, route.handler)
            routes.append(route)
        self.active[session.name] = routes

    def hits_of(self, session: str) -> list[tuple[Rule, int]]:
        return [(route.rule, route.hits) for route in self.active.get(session, [])]

    def _build(self, session: str, rule: Rule, hits: int) -> ActiveRoute:
        route = ActiveRoute(rule, url_matcher(rule["pattern"]), _unset, hits)
        if rule.get("har"):
            try:
                route.recorded = har_entries(rule["har"])
            except UsageError as exc:  # the file went away since `route --har` read it: requests go through
                log.warning("route %s answers nothing: %s", rule["pattern"], exc.message)

        async def handle(request_route: Route) -> None:
            await self._answer(session, route, request_route)

        route.handler = handle
        return route

    async def _answer(self, session: str, route: ActiveRoute, request_route: Route) -> None:
        rule, request = route.rule, request_route.request
        recorded = route.recorded.get((request.method, request.url)) if rule.get("har") else None
        if not self._applies(route, request.url, recorded):
            await request_route.fallback()
            return
        route.hits += 1
        delay = rule.get("delay_ms") or 0
        self._log(session, request, rule["pattern"], _outcome(rule, recorded))
        if delay:
            await asyncio.sleep(delay / 1000)
        if rule.get("abort"):
            await request_route.abort("blockedbyclient")
        elif recorded is not None:
            await request_route.fulfill(**recorded)
        elif answers(rule):
            await request_route.fulfill(**_fulfilment(rule))
        else:
            await request_route.fallback()

    def _applies(self, route: ActiveRoute, url: str, recorded: dict[str, Any] | None) -> bool:
        """Whether the rule acts on this request Playwright matched."""
        rule, times = route.rule, route.rule.get("times")
        if times is not None and route.hits >= times:
            return False
        if rule.get("har") and recorded is None:
            return False  # not in the recording: the network answers
        if isinstance(route.matcher, str) and not glob_names(route.matcher, url):
            return False  # the glob matched only the URL's query
        lets_through = not (rule.get("abort") or recorded is not None or answers(rule))
        return not (lets_through and self._refused(url))  # a delay for a request refused anyway

    def _log(self, session: str, request: Request, pattern: str, outcome: tuple[str, str]) -> None:
        log = self._hits.setdefault(session, collections.deque(maxlen=HIT_LOG))
        log.append(Hit(next(self._seq), request.method, request.url, pattern, outcome))

    def describe(self, value: Value) -> str:
        return "; ".join(rule_text(rule) for rule in value or [])

    def mark(self, session: Session) -> int:
        log = self._hits.get(session.name)
        return log[-1].seq if log else 0

    def report(self, session: Session, since: int, page_url: str) -> list[str]:
        hits = [hit for hit in self._hits.get(session.name, ()) if hit.seq > since]
        lines = [
            f"request {h.method} {_short(h.url, page_url)} {h.outcome[0]} by route {h.pattern}{h.outcome[1]}"
            for h in hits
        ]
        if len(lines) > REPORT_LIMIT:
            lines = [*lines[:REPORT_LIMIT], f"… {len(lines) - REPORT_LIMIT} more requests answered by routes"]
        return lines


def _identity(rule: Rule) -> str:
    return json.dumps(rule, sort_keys=True)


async def _unset(route: Route) -> None:
    await route.fallback()


def answers(rule: Rule) -> bool:
    """Whether the rule answers itself (a status, a body, a type or a header), rather than letting through."""
    return any(rule.get(k) is not None for k in ("status", "body", "content_type")) or bool(
        rule.get("headers")
    )


def _fulfilment(rule: Rule) -> dict[str, Any]:
    headers = {name: value for name, value in rule.get("headers") or []}
    body = base64.b64decode(rule["body"]) if rule.get("body") is not None else b""
    kind = rule.get("content_type") or "text/plain; charset=utf-8"
    return {"status": rule.get("status") or 200, "headers": headers, "body": body, "content_type": kind}


def _outcome(rule: Rule, recorded: dict[str, Any] | None) -> tuple[str, str]:
    """What a route did to a request, and the status it answered with: ("blocked", "")."""
    delay = rule.get("delay_ms") or 0
    held = f"delayed {delay} ms and " if delay else ""
    if rule.get("abort"):
        return f"{held}blocked", ""
    if recorded is not None:
        return f"{held}answered from a HAR", f" ({recorded['status']})"
    if answers(rule):
        return f"{held}answered", f" ({rule.get('status') or 200})"
    return f"delayed {delay} ms", ""


def rule_text(rule: Rule) -> str:
    """A rule in a few words: `**/api/* → 200 application/json, 2 bytes`."""
    pattern = rule["pattern"]
    parts: list[str] = []
    if rule.get("delay_ms"):
        parts.append(f"delay {rule['delay_ms']} ms")
    if rule.get("abort"):
        parts.append("block")
    elif rule.get("har"):
        parts.append(f"answer from HAR {rule['har']}")
    elif answers(rule):
        size = len(base64.b64decode(rule["body"])) if rule.get("body") is not None else 0
        parts.append(
            f"answer {rule.get('status') or 200} {rule.get('content_type') or 'text/plain'}, {size} bytes"
        )
    if rule.get("times") is not None:
        parts.append("once" if rule["times"] == 1 else f"{rule['times']} times")
    return f"{pattern} → {', '.join(parts)}"


def _short(url: str, page_url: str) -> str:
    """A request's URL as the agent reads it: the path alone when it is on the page's own origin."""
    parts, page = urlsplit(url), urlsplit(page_url)
    if parts.netloc and parts.netloc == page.netloc and parts.scheme == page.scheme:
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return url


def har_entries(path: str) -> dict[tuple[str, str], dict[str, Any]]:
    """A HAR file's responses as `route.fulfill` arguments, by (method, URL); the last one wins."""
    try:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)["log"]["entries"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(
            f"cannot read the HAR file {path}: {exc}", "record one with `browse har start`"
        ) from exc
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for entry in entries:
        try:
            recorded = _recorded(entry["response"])
        except (KeyError, TypeError, ValueError):
            continue  # an entry without a usable response: requests for it go to the network
        if recorded["status"] > 0:  # -1: the request never got an answer while recording
            found[(entry["request"]["method"], entry["request"]["url"])] = recorded
    return found


# Headers that describe the recorded transfer, not the body replayed from the file.
_TRANSFER_HEADERS = ("content-length", "content-encoding", "transfer-encoding")


def _recorded(response: dict[str, Any]) -> dict[str, Any]:
    content = response.get("content") or {}
    text = content.get("text") or ""
    body = base64.b64decode(text) if content.get("encoding") == "base64" else text.encode()
    headers = {
        h["name"]: h["value"]
        for h in response.get("headers") or []
        if h["name"].lower() not in _TRANSFER_HEADERS
    }
    return {"status": int(response["status"]), "headers": headers, "body": body}
