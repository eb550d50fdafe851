"""Which actions are consequential: `BROWSE_CONFIRM` names kinds, a rules file adds patterns.

    BROWSE_CONFIRM=destructive,payment,send,upload,download,cross-origin,tools,js   (or "all")
    BROWSE_CONFIRM_RULES=path/to/rules.json

A rules file is a JSON list of objects with any of `name` (the button's or
link's words), `action` (the form's action URL), `method`, `host` (the page's
host): regular expressions, case-insensitive, all of which must match. Off by
default: with neither set, nothing is held.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from refbrowse.protocol import open_regular
from refbrowse.registry import COMMANDS

log = logging.getLogger("refbrowse")
RULES_MAX = 1_000_000  # bytes of a rules file: a few hundred rules are a few kB

# Kinds of consequence, not commands (some share a command's name): one string, so no list of commands.
KINDS = tuple("destructive payment send upload download cross-origin tools js".split())  # noqa: SIM905
_DESTRUCTIVE = re.compile(
    r"(?i)\b(delete|remove|destroy|erase|wipe|drop|purge|deactivate|terminate|revoke|unsubscribe"
    r"|close (my |the )?account|cancel (my |the )?(subscription|order|account|plan))\b"
)
_PAYMENT = re.compile(
    r"(?i)\b(pay|payment|buy|purchase|checkout|check out|place (the |my )?order|order now|subscribe"
    r"|donate|upgrade|add funds|transfer|confirm (the )?(payment|purchase|order))\b"
)
_SEND = re.compile(r"(?i)\b(send|post|publish|reply|comment|share|tweet|invite|email|message|submit|merge)\b")
_PATH_WORDS = {
    "destructive": re.compile(r"(?i)(delete|remove|destroy|erase|deactivate)"),
    "payment": re.compile(r"(?i)(checkout|payment|purchase|/pay\b|/order)"),
}


@dataclass(frozen=True, slots=True)
class Consequence:
    """What an action would do, as far as the page says: the words on its target and the form it submits."""

    command: str
    target: str = ""  # the selector or ref as given
    name: str = ""  # the target's words ("Delete account")
    role: str = ""
    page_url: str = ""
    method: str = ""  # the submitted form's method, upper case, "" if the action submits none
    action: str = ""  # the submitted form's action URL (absolute)
    href: str = ""  # a link's target
    download: bool = False  # a link that downloads

    def said(self) -> str:
        """`click @e9 "Delete account" → POST /account/delete on shop.example`."""
        head = " ".join(
            p for p in (self.command, self.target, json.dumps(self.name) if self.name else "") if p
        )
        page_host = urlsplit(self.page_url).netloc
        if self.method:
            parts = urlsplit(self.action)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            return f"{head} → {self.method} {path or '/'} on {parts.netloc or page_host}"
        if self.href:
            return f"{head} → {'download ' if self.download else ''}{self.href}"
        return f"{head} on {page_host}" if page_host else head


@dataclass(frozen=True, slots=True)
class ConsentPolicy:
    kinds: frozenset[str] = frozenset()
    rules: tuple[dict[str, re.Pattern[str]], ...] = ()
    origins: tuple[str, ...] = field(default=())
    refused: str = ""  # why BROWSE_CONFIRM_RULES could not be used: every action is held then

    @property
    def on(self) -> bool:
        return bool(self.kinds or self.rules)

    @classmethod
    def from_env(cls) -> ConsentPolicy:
        words = {w.strip().lower() for w in os.environ.get("BROWSE_CONFIRM", "").split(",") if w.strip()}
        if "all" in words:
            words = set(KINDS)
        unknown = words - set(KINDS) - {"off", "0", "none"}
        if unknown:  # the daemon starts all the same: said in its log and by `status`
            log.warning(
                "BROWSE_CONFIRM: not kinds of action: %s (kinds: %s)", sorted(unknown), ",".join(KINDS)
            )
        path = os.environ.get("BROWSE_CONFIRM_RULES", "")
        rules, refused = _rules(path) if path else ((), "")
        return cls(frozenset(words & set(KINDS)), rules, refused=refused)

    def kinds_of(self, what: Consequence) -> list[str]:
        """The kinds of consequence `what` is that the policy holds, in the order of `KINDS`."""
        found = [kind for kind in KINDS if kind in self.kinds and _is(kind, what)]
        if any(_rule_matches(rule, what) for rule in self.rules):
            found.append("rule")
        return found


def _is(kind: str, what: Consequence) -> bool:
    always = COMMANDS[what.command].get("consent") if what.command in COMMANDS else None
    if kind in ("upload", "js", "tools"):
        return always == kind
    if kind == "download":
        return always == kind or what.download
    if kind == "cross-origin":
        return bool(what.method) and _origin(what.action) != _origin(what.page_url)
    words = {"destructive": _DESTRUCTIVE, "payment": _PAYMENT, "send": _SEND}[kind]
    if words.search(what.name):
        return True
    in_path = _PATH_WORDS.get(kind)
    return bool(in_path and what.method and in_path.search(urlsplit(what.action).path))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _rules(path: str) -> tuple[tuple[dict[str, re.Pattern[str]], ...], str]:
    """The rules of the file, and "" or why it was refused. A file that cannot be read holds every
    action the gate looks at (fails closed). It is opened as the state files are: no symlink followed,
    nothing but a regular file of this user (a FIFO would hold the daemon's start), at most `RULES_MAX`."""
    try:
        with os.fdopen(open_regular(path), "rb") as f:
            data = f.read(RULES_MAX + 1)
        if len(data) > RULES_MAX:
            raise ValueError(f"larger than {RULES_MAX:,} bytes")
        raw = json.loads(data.decode("utf-8"))
        return tuple({k: re.compile(str(v), re.I) for k, v in rule.items()} for rule in raw), ""
    except (OSError, ValueError, TypeError, AttributeError, re.error) as exc:
        why = _refusal(path, exc)
        log.error("BROWSE_CONFIRM_RULES %s was refused (%s): every action is held", path, why)
        return ({"name": re.compile("")},), why


def _refusal(path: str, exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.errno == errno.ELOOP:
        return "it is a symlink; name the file it points to"
    if isinstance(exc, OSError) and exc.errno == errno.ENOENT:
        return "no such file"
    return str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc).replace(path, "it")


def _rule_matches(rule: dict[str, re.Pattern[str]], what: Consequence) -> bool:
    fields = {
        "name": what.name,
        "action": what.action,
        "method": what.method,
        "host": urlsplit(what.page_url).netloc,
    }
    return bool(rule) and all(key in fields and pattern.search(fields[key]) for key, pattern in rule.items())
