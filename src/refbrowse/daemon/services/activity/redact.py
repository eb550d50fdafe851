"""A command's arguments as the activity page may show them: no password, no secret in a URL.

The text `fill` or `type` put into a password field is replaced, and so is any
text typed where the page cannot tell (the command failed, the page is gone)
or whose target is named like a password. Every other word goes through the
daemon's URL scrubbing (`target.scrub`), as log lines do.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.target import scrub
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.refs import parse_ref
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.errors import BrowseError
from refbrowse.parse import parse_argv

HIDDEN = "(redacted)"
CHECK_S = 1.0
TYPED = {"fill": 1, "type": 1}  # command -> index of the typed text, counted from the end
# Values kept back wherever they went: a cookie's value (often a session), text put on the clipboard.
ALWAYS_HIDDEN = {("cookies", "set"): 2, ("clipboard", "write"): 1}  # (command, form) -> argument index
_SECRET_HEADER = re.compile(r"(?i)auth|cookie|token|secret|key|session|pass|signature|credential")
_PASSWORD_WORDS = re.compile(r"(?i)pass|pwd|secret|token|otp|pin\b|cvc|cvv")
# Whether `text` went into a password field. `fill` and `type` leave the field focused: the
# focused element (through open shadow roots) is checked first, then every password field
# of the document by value. Focus inside a frame, or inside a closed shadow root (its host
# holds the focus but is no field), cannot be followed: that counts as a yes.
MASKED_FIELD_SCRIPT = script("masked_field")


def typed_in_chain(stdin: object) -> list[str]:
    """The text of every `fill` and `type` step of a chain (JSON steps): its error quotes its steps."""
    try:
        steps = json.loads(stdin) if isinstance(stdin, str) else []
    except ValueError:
        return []
    typed: list[str] = []
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, list) and len(step) > 1 and step[0] in TYPED:
            words = [str(word) for word in step]
            try:
                typed.append(parse_argv(words)["args"][-TYPED[words[0]]])
            except (BrowseError, IndexError):
                typed += words[2:]  # not a step that runs: every word but the target is kept back
    return [text for text in typed if text]


async def redacted_args(command: str, args: list[str], ok: bool, tab: Tab | None) -> tuple[str, ...]:
    """`args` with secrets replaced by `HIDDEN`."""
    shown = [scrub(arg) for arg in args]
    hidden = ALWAYS_HIDDEN.get((command, args[0] if args else ""))
    if hidden is not None and hidden < len(args):
        shown[hidden] = HIDDEN
    if command == "headers" and len(args) >= 3 and _SECRET_HEADER.search(args[1]):
        shown[2] = HIDDEN  # `headers set Authorization VALUE`
    if command in TYPED and args:
        text = args[-TYPED[command]]
        target = args[0] if len(args) > 1 else ""
        if await _is_secret(text, target, ok, tab):
            shown[-TYPED[command]] = HIDDEN
    return tuple(shown)


def redacted_flags(flags: dict[str, Any]) -> dict[str, Any]:
    """Flags as the feed shows them: URLs scrubbed, secret-looking `--header NAME:VALUE` values hidden."""
    shown: dict[str, Any] = {}
    for flag, value in flags.items():
        values = value if isinstance(value, list) else [value]
        kept = [
            _header_shown(str(v)) if flag == "--header" else scrub(v) if isinstance(v, str) else v
            for v in values
        ]
        shown[str(flag)] = kept if isinstance(value, list) else kept[0]
    return shown


def _header_shown(pair: str) -> str:
    name, colon, _ = pair.partition(":")
    return f"{name}:{HIDDEN}" if colon and _SECRET_HEADER.search(name) else scrub(pair)


async def _is_secret(text: str, target: str, ok: bool, tab: Tab | None) -> bool:
    if not text or _named_like_password(target, tab):
        return True
    if not ok or tab is None:
        return True  # nothing tells where the text went: keep it back
    try:
        # A page held by a dialog does not answer: then the text is kept back.
        return bool(await asyncio.wait_for(tab.page.evaluate(MASKED_FIELD_SCRIPT, text), CHECK_S))
    except (PlaywrightError, TimeoutError):
        return True


def _named_like_password(target: str, tab: Tab | None) -> bool:
    ref = parse_ref(target) if target else None
    if ref is not None and tab is not None:
        found = tab.refs.live()
        seen = next((t for t in found if t.ref == ref), None)
        if seen is not None:
            target = " ".join([seen.role, seen.name, *seen.states])
    return bool(_PASSWORD_WORDS.search(target))
