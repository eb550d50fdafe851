"""Inspect: `js`, `eval`, `css`, `attrs`, `is`: ask the page about itself.

`js` and `eval` run code in the page. Code that uses `await` (outside strings
and comments) is wrapped in an async function: a one-line script returns its
value, a longer one returns what its `return` says. Results come back as text,
objects as pretty JSON, and are fenced as page content.
"""

from __future__ import annotations

import asyncio
import json
import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator
from playwright.async_api import TimeoutError as PlaywrightTimeout

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.core.io.nofollow import read_resolved
from refbrowse.daemon.core.sessions.refs import parse_ref
from refbrowse.daemon.page.pagereads import SCRIPT_RESULT_CHARS
from refbrowse.daemon.page.resolver import resolve
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG
from refbrowse.errors import BrowseError, PageError, UsageError

# Code that parses as an expression is evaluated as one (so `{a: 1}` is an object);
# other code runs in a block, so that its `const`s do not clash with the next run's.
_DESCRIBE_JS = script("describe_element")

# Strings, template literals and comments: where an `await` does not count.
_INERT = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`""",
    re.DOTALL,
)
_AWAIT = re.compile(r"(?<![\w$.])await\b")


def uses_await(code: str) -> bool:
    return bool(_AWAIT.search(_INERT.sub(" ", code)))


def prepare(code: str) -> str:
    """The code to evaluate: wrapped in an async function when it awaits."""
    code = code.strip()
    if not uses_await(code):
        return code
    if "\n" not in code:
        return f"(async () => {{ return ({code.rstrip(';').strip()}\n); }})()"  # \n: a trailing // comment
    return f"(async () => {{\n{code}\n}})()"


async def run_script(call: Call, code: str) -> str:
    if not code.strip():
        raise UsageError("there is no code to run", "for example: browse js document.title")
    try:
        text, value, length = await call.page.evaluate(_DESCRIBE_JS, [prepare(code), SCRIPT_RESULT_CHARS])
    except PlaywrightTimeout as exc:
        raise translate(exc, "running the script") from exc
    except PlaywrightError as exc:
        raise _script_error(exc) from exc
    fenced = fence(str(text), call.page.url, call.raw)
    if length > len(text):
        fenced += f"\n… the value is {length:,} characters long; the first {len(text):,} are shown"
    return Reply(fenced, {"value": value}) if call.json else fenced


def _script_error(exc: PlaywrightError) -> BrowseError:
    message = exc.message.strip()
    if "Target page, context or browser has been closed" in message or "Execution context" in message:
        return translate(exc, "running the script")
    first = message.splitlines()[0] if message else "unknown error"
    first = first.removeprefix("Page.evaluate: ")
    return PageError(f"the script threw: {first}", "fix the script, or check the page with `browse console`")


@handler("js")
async def js(call: Call) -> str:
    return await run_script(call, call.args[0])


@handler("eval")
async def eval_file(call: Call) -> str:
    path = call.args[0]
    policy = call.services.policy
    # The resolved path is read following no symlink, so one swapped in after the check cannot redirect it.
    real = policy.input_path(path, call.flag(ALLOW_PATH_FLAG))
    try:
        data = await asyncio.to_thread(read_resolved, real, MAX_SCRIPT_BYTES)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}", "give the path of a JavaScript file") from exc
    if len(data) > MAX_SCRIPT_BYTES:
        raise UsageError(f"{path} is larger than 16 MB", "give the path of a JavaScript file")
    try:
        code = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text", "give the path of a JavaScript file") from exc
    return await run_script(call, code)


MAX_SCRIPT_BYTES = 16 * 1024 * 1024


async def one(call: Call, selector: str) -> Locator:
    """The single element `selector` names; several matches is an error naming the count."""
    locator = await resolve(call.tab, selector)
    count = await locator.count()
    if count > 1:
        raise PageError(
            f"{selector!r} matches {count} elements",
            "make it more specific, or use a ref from `browse snapshot -i`",
        )
    return locator


def _kebab(prop: str) -> str:
    return prop if prop.startswith("--") else re.sub(r"(?<!^)([A-Z])", r"-\1", prop).lower()


@handler("css")
async def css(call: Call) -> str:
    selector, prop = call.args[0], _kebab(call.args[1])
    element = await one(call, selector)
    value = await element.evaluate("(el, p) => getComputedStyle(el).getPropertyValue(p)", prop)
    if value == "" and not prop.startswith("--"):
        raise UsageError(f"no computed style property {prop!r}", "use a CSS property name such as color")
    return str(value)


@handler("attrs")
async def attrs(call: Call) -> str:
    element = await one(call, call.args[0])
    found = await element.evaluate(
        "el => Object.fromEntries(Array.from(el.attributes, a => [a.name, a.value]))"
    )
    return fence(json.dumps(found, indent=2, ensure_ascii=False), call.page.url, call.raw)


@handler("is")
async def is_state(call: Call) -> str:
    state, selector = call.args[0], call.args[1]
    # For visible and hidden, absence is an answer: a missing toast is not visible.
    may_be_absent = state in ("visible", "hidden") and parse_ref(selector) is None
    if may_be_absent and await call.page.locator(selector).count() == 0:
        return "false" if state == "visible" else "true"
    element = await one(call, selector)
    return "true" if await _check(element, state) else "false"


async def _check(element: Locator, state: str) -> bool:
    if state == "visible":
        return await element.is_visible()
    if state == "hidden":
        return await element.is_hidden()
    if state == "enabled":
        return await element.is_enabled()
    if state == "disabled":
        return await element.is_disabled()
    if state == "checked":
        return await element.is_checked()
    if state == "editable":
        return await element.is_editable()
    return bool(await element.evaluate("el => el.getRootNode().activeElement === el"))
