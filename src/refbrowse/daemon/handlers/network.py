"""Network commands: `route`, `unroute`, `routes`, `headers`, `offline`, `throttle`, `har`.

Each changes one family of the session's settings (see
`services/sessionsettings.py`), which applies it to the browser context and its
tabs and keeps it across a restart. Header values that look like secrets are
never echoed.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import time
from typing import cast

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.services.netconditions import THROTTLE_PRESETS, is_secret_header, origin_of, shown_value
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG
from refbrowse.daemon.services.routes import Rule, har_entries, rule_text
from refbrowse.errors import BrowseError, UsageError
from refbrowse.kinds import parse_value

MAX_BODY_BYTES = 10 * 1024 * 1024  # a route's body is kept in the session's settings file


@handler("route")
async def route(call: Call) -> str:
    rule = _har_rule(call) if call.flag("--har") else _answer_rule(call)
    settings = call.services.settings
    old: list[Rule] = settings.value(call.session.name, "routes") or []
    rules = [r for r in old if r["pattern"] != rule["pattern"]]
    await settings.set(call.session, "routes", [*rules, rule])
    replaced = " (replacing the route it had)" if len(rules) < len(old) else ""
    return f"Route {rule_text(rule)}{replaced}; {len(rules) + 1} active in session {call.session.name}"


def _answer_rule(call: Call) -> Rule:
    pattern = str(call.arg(0))  # the registry's rules: a PATTERN, or --har
    rule: Rule = {"pattern": pattern}
    body, kind = _body(call)
    if body is not None:
        rule["body"] = base64.b64encode(body).decode()
    rule.update({"content_type": kind} if kind else {}, **_copied(call))
    if call.flag("--abort"):  # never with an answer, and something to do: the registry's rules
        rule["abort"] = True
    return rule


_COPIED = (
    ("--status", "status"),
    ("--content-type", "content_type"),
    ("--times", "times"),
    ("--delay", "delay_ms"),
)


def _copied(call: Call) -> Rule:
    """The flags that go into a rule as they are, and the answer's headers as [name, value] pairs."""
    rule: Rule = {key: call.flags[flag] for flag, key in _COPIED if call.flag(flag) is not None}
    if rule.get("delay_ms") == 0:
        del rule["delay_ms"]
    if call.flag("--header"):
        rule["headers"] = [list(pair) for pair in call.flag("--header")]
    return rule


def _body(call: Call) -> tuple[bytes | None, str]:
    """The answer's body, and the type its file's name says ("" when none is to be guessed)."""
    text, path = call.flag("--body"), call.flag("--body-file")  # one of them: the registry's rules
    if path is None:
        return (None if text is None else str(text).encode()), ""
    real = call.services.policy.input_path(path, call.flag(ALLOW_PATH_FLAG))
    if not os.path.isfile(real):
        raise UsageError(f"no such file: {path}", "give the path of an existing file")
    if os.path.getsize(real) > MAX_BODY_BYTES:
        raise UsageError(f"{path} is over {MAX_BODY_BYTES // 1_000_000} MB", "serve a smaller body")
    with open(real, "rb") as f:
        return f.read(), mimetypes.guess_type(real)[0] or "application/octet-stream"


def _har_rule(call: Call) -> Rule:
    path = call.services.policy.input_path(call.flag("--har"), call.flag(ALLOW_PATH_FLAG))
    recorded = har_entries(os.path.realpath(path))
    if not recorded:
        raise UsageError(f"{path} holds no response to replay", "record one with `browse har start`")
    rule: Rule = {"pattern": call.flag("--url") or call.arg(0) or "**/*", "har": os.path.realpath(path)}
    for flag, key in (("--times", "times"), ("--delay", "delay_ms")):
        if call.flag(flag):
            rule[key] = call.flags[flag]
    return rule


@handler("unroute")
async def unroute(call: Call) -> str:
    settings, name = call.services.settings, call.session.name
    rules: list[Rule] = settings.value(name, "routes") or []
    pattern = call.arg(0)
    gone = [r for r in rules if pattern is None or r["pattern"] == pattern]
    if not gone:
        known = ", ".join(r["pattern"] for r in rules) or "none"
        raise BrowseError(f"no route for {pattern}", f"active routes: {known} (see `browse routes`)")
    hits = {id(rule): n for rule, n in call.services.routes.hits_of(name)}
    kept = [r for r in rules if r not in gone]
    await settings.set(call.session, "routes", kept or None)
    said = ", ".join(f"{r['pattern']} ({_requests(hits.get(id(r), 0))} answered)" for r in gone)
    return f"Removed route{'s' if len(gone) > 1 else ''} {said}; {len(kept)} left"


@handler("routes")
async def routes(call: Call) -> str:
    listed = call.services.routes.hits_of(call.session.name)
    data = [
        {
            "pattern": r["pattern"],
            "action": rule_text(r).split(" → ", 1)[1],
            "hits": n,
            "times": r.get("times"),
        }
        for r, n in listed
    ]
    if not listed:
        return Reply("No routes (add one with `browse route PATTERN --body TEXT`)", {"routes": []})
    lines = [f"{rule_text(r)}  ({_requests(n)} answered)" for r, n in listed]
    return Reply("\n".join(lines), {"routes": data})


def _requests(count: int) -> str:
    return f"{count} request{'s' if count != 1 else ''}"


@handler("headers")
async def headers(call: Call) -> str:
    action, name, value = call.args[0], call.arg(1), call.arg(2)
    if action == "clear":
        return await _clear_headers(call, name, value)
    name, value = cast("tuple[str, str]", parse_value("header", f"{name}:{value}", "headers set"))
    origin = origin_of(call.flag("--origin")) if call.flag("--origin") else ""
    settings = call.services.settings
    kept = [
        h
        for h in settings.value(call.session.name, "headers") or []
        if (h[0].lower(), h[2]) != (name.lower(), origin)
    ]
    await settings.set(call.session, "headers", [*kept, [name, value, origin]])
    where = f"requests to {origin}" if origin else "every request"
    secret = " (value hidden)" if is_secret_header(name) else ""
    return f"Header {name}: {shown_value(name, value)} on {where} of session {call.session.name}{secret}"


async def _clear_headers(call: Call, name: str | None, value: str | None) -> str:
    settings = call.services.settings
    had = settings.value(call.session.name, "headers") or []
    kept = [h for h in had if name is not None and h[0].lower() != name.lower()]
    if len(kept) == len(had):
        raise BrowseError(
            f"no extra header {name or ''} to clear".replace("  ", " "), "see them with `browse status`"
        )
    await settings.set(call.session, "headers", kept or None)
    return f"Cleared {len(had) - len(kept)} extra header(s); {len(kept)} left"


@handler("offline")
async def offline(call: Call) -> str:
    on = call.args[0] == "on"
    await call.services.settings.set(call.session, "offline", True if on else None)
    if on:
        name = call.session.name
        return f"Offline: every tab of session {name} is cut off the network (`offline off` reconnects)"
    return f"Online: session {call.session.name} reaches the network again"


@handler("throttle")
async def throttle(call: Call) -> str:
    preset = call.args[0]
    await call.services.settings.set(call.session, "throttle", None if preset == "off" else preset)
    if preset == "off":
        return "Network speed back to normal"
    numbers = THROTTLE_PRESETS[preset]
    down = numbers["downloadThroughput"] * 8 / 1000
    return f"Throttled every tab to {preset}: {down:.0f} kbit/s down, {numbers['latency']:g} ms latency"


@handler("har")
async def har(call: Call) -> str:
    if call.args[0] == "stop":
        done = await call.services.hars.stop(call.session, call.services.secrets.known())
        text = f"Wrote HAR 1.2 to {done.path}: {done.entries} requests over {done.seconds:.1f} s"
        data = {"path": done.path, "entries": done.entries, "left_out": done.left_out}
        return Reply(text + (f"\n{done.left_out}" if done.left_out else ""), data)
    given = call.arg(1)
    path = (
        call.services.policy.output_path(given, call.flag(ALLOW_PATH_FLAG))
        if given
        else os.path.join(call.daemon.state_dir, "recordings", f"har-{time.strftime('%Y%m%d-%H%M%S')}.har")
    )
    await call.services.hars.start(call.session, path, bool(call.flag("--secrets")))
    return f"Recording the requests of session {call.session.name}; `browse har stop` writes {path}"
