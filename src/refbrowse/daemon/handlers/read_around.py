"""Read: the passage of plain text around a ref, a selector, an id or the URL's fragment."""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action.passage import PASSAGE_TOKENS, Passage, around, by_id, fragment
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.page.resolver import resolve
from refbrowse.errors import ElementNotFound, UsageError


@handler("read")
async def read(call: Call) -> str:
    target = call.arg(0)
    found = await _passage(call, str(target) if target else "")
    max_tokens = call.flag("--max-tokens") or PASSAGE_TOKENS
    text, left_out = found.cut(int(max_tokens))
    note = (
        f"\n… {left_out} more characters of this {found.kind} left out: `--max-tokens N` shows more"
        if left_out
        else ""
    )
    return fence(text or "(no text there)", call.page.url, call.raw) + note


async def _passage(call: Call, target: str) -> Passage:
    if not target:
        frag = fragment(call.page.url)
        if not frag:
            raise UsageError(
                "read needs a ref, a selector or an #id, or a URL with a #fragment",
                "for example: browse read @e12 (a ref from `find` or `snapshot`)",
            )
        return await _by_id(call, frag)
    if target.startswith("#") and not any(ch.isspace() for ch in target):
        return await _by_id(call, target[1:])  # an id may hold dots (`#asyncio.gather`): not CSS
    locator = await resolve(call.tab, target)
    try:
        return await around(locator)
    except PlaywrightError as exc:
        raise translate(exc, f"reading around {target}") from exc


async def _by_id(call: Call, element_id: str) -> Passage:
    found = await by_id(call.page, element_id)
    if found is None:
        raise ElementNotFound(
            f"no element with id {element_id!r} on {call.page.url}",
            "run `browse find TEXT` to locate the passage, then `browse read REF`",
        )
    return found
