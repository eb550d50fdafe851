"""A command's arguments as the activity page may show them: no password, no secret in a URL.

The text `fill` or `type` put into a password field is replaced, and so is any
text typed where the page cannot tell (the command failed, the page is gone)
or whose target is named like a password. Every other word goes through the
daemon's URL scrubbing (`target.scrub`), as log lines do.
"""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.refs import parse_ref
from refbrowse.daemon.session import Tab
from refbrowse.daemon.target import scrub

HIDDEN = "(redacted)"
CHECK_S = 1.0
TYPED = {"fill": 1, "type": 1}  # command -> index of the typed text, counted from the end
_PASSWORD_WORDS = re.compile(r"(?i)pass|pwd|secret|token|otp|pin\b|cvc|cvv")
FIELD_VALUES_SCRIPT = """() => {
  const found = [];
  const visit = root => {
    for (const el of root.querySelectorAll('input[type=password]')) found.push(el.value);
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(document);
  return found;
}"""


async def redacted_args(command: str, args: list[str], ok: bool, tab: Tab | None) -> tuple[str, ...]:
    """`args` with secrets replaced by `HIDDEN`."""
    shown = [scrub(arg) for arg in args]
    if command in TYPED and args:
        text = args[-TYPED[command]]
        target = args[0] if len(args) > 1 else ""
        if await _is_secret(text, target, ok, tab):
            shown[-TYPED[command]] = HIDDEN
    return tuple(shown)


async def _is_secret(text: str, target: str, ok: bool, tab: Tab | None) -> bool:
    if not text or _named_like_password(target, tab):
        return True
    if not ok or tab is None:
        return True  # nothing tells where the text went: keep it back
    try:
        # A page held by a dialog does not answer: then the text is kept back.
        values = await asyncio.wait_for(tab.page.evaluate(FIELD_VALUES_SCRIPT), CHECK_S)
    except (PlaywrightError, TimeoutError):
        return True
    return any(isinstance(value, str) and value and (text in value) for value in values)


def _named_like_password(target: str, tab: Tab | None) -> bool:
    ref = parse_ref(target) if target else None
    if ref is not None and tab is not None:
        found = tab.refs.live()
        target = next((f"{t.role} {t.name}" for t in found if t.ref == ref), target)
    return bool(_PASSWORD_WORDS.search(target))
