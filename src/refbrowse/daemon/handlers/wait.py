"""Wait: for an element, a text, an element to go, a URL, an idle page, a load state, a JS
condition, a download, a response, or a time.

Each form says what it waited for and how long it took. Waits are bounded by
the action timeout (`--timeout MS`); running out is exit code 4 with a hint.
"""

from __future__ import annotations

import asyncio
import fnmatch
import os
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Response

from refbrowse.daemon.action.settle import QUIET_MS, ActionWatch
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.sessions.refs import parse_ref
from refbrowse.daemon.page.pageprobe import ANSWER_MS, PageBusy, answered, observe
from refbrowse.daemon.page.resolver import resolve
from refbrowse.errors import ActionTimeout, StaleRef, UsageError
from refbrowse.registry import WAIT_FORMS

T = TypeVar("T")
_FORMS = WAIT_FORMS[1:]  # the flags; the registry checks that exactly one form is given


@handler("wait")
async def wait(call: Call) -> str:
    target = call.arg(0)
    given = [form for form in _FORMS if call.flag(form) not in (None, False)]
    start = time.monotonic()
    if isinstance(target, int):
        await asyncio.sleep(target / 1000)  # its kind bounds it (see the registry)
        return f"Waited {target} ms"
    if target is not None:
        what = await _visible(call, str(target))
    else:
        form = given[0]
        what = await _FORM_HANDLERS[form](call, str(call.flags[form]))
    return f"{what} after {round((time.monotonic() - start) * 1000)} ms"


async def _bounded(doing: str, step: Awaitable[object]) -> None:
    try:
        await step
    except PlaywrightError as exc:
        raise translate(exc, doing) from exc


async def _visible(call: Call, target: str) -> str:
    locator = await _waitable(call, target)
    await _bounded(f"waiting for {target}", locator.wait_for(state="visible"))
    return f"{target} is visible"


async def _waitable(call: Call, target: str) -> Locator:
    """A ref must exist now; a CSS selector may still be on its way."""
    if parse_ref(target) is not None:
        return await resolve(call.tab, target)
    return call.page.locator(target).first


async def _text(call: Call, text: str) -> str:
    locator = call.page.get_by_text(text).first
    await _bounded(f"waiting for the text {text!r}", locator.wait_for(state="visible"))
    return f"Text {text!r} appeared"


async def _gone(call: Call, target: str) -> str:
    ref = parse_ref(target)
    locator = call.page.locator(target)
    if ref is not None:
        try:
            known = call.tab.refs.target(ref)
        except StaleRef:
            return f"{target} is gone (it was already)"
        if known.handle is not None or known.reached:
            raise UsageError("--gone takes a CSS selector or an @e ref", "for example: wait --gone .spinner")
        # the element the ref was given to, whatever it has become since: only its going counts
        locator = call.page.get_by_ref(known.pw_ref)
    await _bounded(f"waiting for {target} to go", locator.first.wait_for(state="hidden"))
    return f"{target} is gone"


async def _url(call: Call, pattern: str) -> str:
    def matches(url: str) -> bool:
        return fnmatch.fnmatchcase(url, pattern) if "*" in pattern else pattern in url

    page, limit = call.page, call.action_timeout_ms
    await _bounded(f"waiting for a URL like {pattern!r}", page.wait_for_url(matches, timeout=limit))
    return f"URL matches {pattern!r}: {call.page.url}"


async def _idle(call: Call, _: str) -> str:
    """DOM quiet for `QUIET_MS` and no fetch, XHR or script request in flight."""
    deadline = time.monotonic() + call.action_timeout_ms / 1000
    with ActionWatch(call.page) as watch:
        while (left := int((deadline - time.monotonic()) * 1000)) > 0:
            try:
                seen = await answered(observe(call.tab))
                if seen is not None:
                    await answered(seen[0].quiet(QUIET_MS, left, QUIET_MS, False), left + ANSWER_MS)
            except PlaywrightError:
                continue  # a navigation replaced the document: look at the new one
            except PageBusy as exc:
                raise ActionTimeout(
                    "the page's script is busy: it did not answer", "avoid that page, or reload it"
                ) from exc
            if watch.drained.is_set() and not watch.navigating and time.monotonic() < deadline:
                return f"Page idle (DOM quiet {QUIET_MS} ms, no requests in flight): {call.page.url}"
            await asyncio.sleep(0.01)
    raise ActionTimeout(
        f"the page did not become idle within {call.action_timeout_ms} ms",
        "it may poll or animate forever: wait for a text or element instead, or raise --timeout",
    )


async def _load(call: Call, _: str) -> str:
    page, limit = call.page, call.nav_timeout_ms
    await _bounded("waiting for load", page.wait_for_load_state("load", timeout=limit))
    return f"Page reached load: {call.page.url}"


async def _networkidle(call: Call, _: str) -> str:
    page, limit = call.page, call.nav_timeout_ms
    await _bounded("waiting for networkidle", page.wait_for_load_state("networkidle", timeout=limit))
    return f"Page reached networkidle: {call.page.url}"


_POLL_MS = 100  # a JS condition is polled on a timer: animation frames stop in a hidden tab


async def _fn(call: Call, expression: str) -> str:
    limit = call.action_timeout_ms
    waiting = call.page.wait_for_function(expression, polling=_POLL_MS, timeout=limit)
    await _bounded(f"waiting for {expression!r} to be true", waiting)
    return f"{expression} is true"


async def _download(call: Call, _: str) -> str:
    """The next download the page starts; kept, where it would otherwise be cancelled as unasked."""
    page, wanted = call.page, call.services.wanted_downloads
    wanted.add(page)
    try:
        waiting = page.wait_for_event("download", timeout=call.action_timeout_ms)
        download = await _answer(f"waiting for a download on {page.url}", waiting)
    finally:
        wanted.discard(page)
    folder = os.path.join(call.daemon.state_dir, "downloads")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    path = os.path.join(
        folder, os.path.basename(download.suggested_filename.replace("\\", "/")) or "download"
    )
    await _bounded(f"saving the download from {download.url}", download.save_as(path))
    return f"Downloaded {download.suggested_filename} ({os.path.getsize(path)} bytes) to {path}"


async def _response(call: Call, pattern: str) -> str:

    def matches(response: Response) -> bool:
        url = response.url
        return fnmatch.fnmatchcase(url, pattern) if "*" in pattern else pattern in url

    waiting = call.page.wait_for_event("response", matches, timeout=call.action_timeout_ms)
    response = await _answer(f"waiting for a response like {pattern!r}", waiting)
    return f"Response {response.request.method} {response.url} → {response.status}"


async def _answer(doing: str, step: Awaitable[T]) -> T:
    try:
        return await step
    except PlaywrightError as exc:
        raise translate(exc, doing) from exc


_FORM_HANDLERS: dict[str, Callable[[Call, str], Awaitable[str]]] = {
    "--text": _text,
    "--gone": _gone,
    "--url": _url,
    "--idle": _idle,
    "--load": _load,
    "--networkidle": _networkidle,
    "--fn": _fn,
    "--download": _download,
    "--response": _response,
}
