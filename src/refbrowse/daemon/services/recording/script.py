"""A session's actions as a pytest file with Playwright's sync API, written by `record stop`.

Each command that succeeded while recording becomes one step, its targets
written as locators a person would (see `locators`): refs never reach the file.
What the command's report showed becomes an assertion: the URL a navigation
reached, the messages that appeared (alerts, status and live regions), the
value a field was filled with, a box checked. Reads are left out; commands
with no Playwright counterpart are kept as comments.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, ViewportSize

from refbrowse import kinds
from refbrowse.daemon.action.fields import YES
from refbrowse.daemon.core.browser.chromium import SYSTEM_NAMES
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.sessions.refs import parse_ref
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.services.recording.locators import css_source, live_source, plain, q, remembered_source
from refbrowse.daemon.services.recording.pagetool_step import LAUNCH_ARG, tool_step
from refbrowse.daemon.services.recording.template import TEST_FILE
from refbrowse.errors import BrowseError
from refbrowse.registry import COMMANDS

# A message an action's report showed (see `outcome._message_line`): a line of its own, or an
# added line of its view diff (`+- status: "Saved"`).
_MESSAGE = re.compile(r'^(?:\+\s*-\s*)?(alert|status|live region|output|message): (".*")$')

_IS_SECRET_FIELD_JS = "e => e instanceof HTMLInputElement && e.type === 'password'"  # noqa: S105 (a script, no secret)
_FIELD_KIND_JS = script("field_kind")


# A field named like a secret, for when the page can no longer say whether it is a password field.
_SECRET_NAME = re.compile(r"(?i)pass|pwd|secret|token|otp|pin\b|cvc|cvv")


@dataclass
class Step:
    """One command as the test does it, and what the test then checks."""

    command: str
    lines: list[str] = field(default_factory=list)


def _recorded(command: str) -> bool:
    """Whether a test replays `command`: what changes the page (or waits for it), not what reads it."""
    spec = COMMANDS.get(command)
    if spec is None or spec["cat"] == "meta" or spec.get("unrecorded"):
        return False
    return spec["cat"] == "write" or command in _WRITERS


@dataclass
class ScriptRun:
    """The steps recorded so far in one session, and the tab the next command acts on."""

    tab: Tab
    start_url: str
    viewport: ViewportSize | None
    started: float = field(default_factory=time.time)
    steps: list[Step] = field(default_factory=list)
    last_url: str = ""
    secrets: list[str] = field(default_factory=list)  # environment variables the test reads passwords from
    uses_page_tools: bool = False  # a step calls a page's own tool: the test's browser needs WebMCP

    def __post_init__(self) -> None:
        self.last_url = self.start_url

    async def note(self, request: CheckedRequest, output: str, current: Tab | None) -> None:
        """Record one command that succeeded on `self.tab`; the next acts on `current`."""
        name = request.command
        try:
            if _recorded(name):
                await self._translate(name, list(request.args), dict(request.flags), output)
        finally:
            self.tab = current or self.tab

    async def _translate(self, name: str, args: list[str], flags: dict[str, Any], output: str) -> None:
        writer = _WRITERS.get(name)
        step = Step(name)
        if writer is None:
            step.lines.append(
                plain(f"# browse {name} {' '.join(args)}".rstrip()) + ": no Playwright step for it"
            )
        else:
            step.lines += await writer(self, args, flags)
        step.lines += self._assertions(name, output)
        self.steps.append(step)

    def _assertions(self, name: str, output: str) -> list[str]:
        lines: list[str] = []
        url = self._url()
        if url and url != self.last_url and url.startswith(("http:", "https:")):
            lines.append(f"expect(page).to_have_url({q(url)})")
        self.last_url = url or self.last_url
        for kind, text in _messages(output):
            if text and not text.endswith("…"):
                lines.append(f"expect(page.get_by_text({q(text)}).first).to_be_visible()  # {kind}")
        return lines

    def _url(self) -> str:
        page = self.tab.page
        return "" if page.is_closed() else page.url

    async def target(self, selector: str) -> str:
        """The locator source for a command's SEL, as of now (just after the command ran)."""
        ref = parse_ref(selector)
        if ref is None:
            return css_source(selector)
        refs = self.tab.refs
        known = refs.known(ref)
        if known is None:
            raise BrowseError(f"{selector} is unknown in this tab", "")
        with suppress(BrowseError, PlaywrightError):  # else its page has gone: write what the snapshot said
            element = refs.target(ref)  # still live: check each way on the page
            locator = self.tab.page.get_by_ref(element.pw_ref) if element.pw_ref else None
            if locator is not None and await locator.count() == 1:
                return await live_source(self.tab.page, element, locator)
        return remembered_source(refs, known)

    def _live(self, selector: str) -> Locator:
        ref = parse_ref(selector)
        if ref is None:
            return self.tab.page.locator(selector).first
        return self.tab.page.get_by_ref(self.tab.refs.target(ref).pw_ref)

    async def is_password(self, selector: str) -> bool:
        """Whether SEL is a password field; when the page cannot tell, whether it is named like one."""
        with suppress(BrowseError, PlaywrightError):
            return bool(await self._live(selector).evaluate(_IS_SECRET_FIELD_JS, timeout=1_000))
        ref = parse_ref(selector)
        known = self.tab.refs.known(ref) if ref is not None else None
        return bool(_SECRET_NAME.search(f"{known.role} {known.name}" if known else selector))

    async def field_kind(self, selector: str) -> str:
        """What `fill` set on SEL (see field_kind.js): 'text', 'checkbox'…; '' if the page is gone."""
        with suppress(BrowseError, PlaywrightError):
            return str(await self._live(selector).evaluate(_FIELD_KIND_JS, timeout=1_000))
        return ""

    async def selected_value(self, selector: str) -> str | None:
        """The value a <select> holds now, which is the option `fill` chose by its name."""
        with suppress(BrowseError, PlaywrightError):
            return await self._live(selector).input_value(timeout=1_000)
        return None

    def secret(self) -> str:
        """The expression a recorded password is read from: the next environment variable."""
        self.secrets.append(f"RECORDED_PASSWORD_{len(self.secrets) + 1}")
        return f"os.environ[{q(self.secrets[-1])}]"

    def render(self, session: str) -> str:
        body = [line for step in self.steps for line in step.lines] or ["pass  # no actions were recorded"]
        viewport = f"viewport={self.viewport!r}" if self.viewport else ""
        return TEST_FILE.format(
            when=plain(time.strftime("%Y-%m-%d %H:%M", time.localtime(self.started))),
            session=plain(session),
            count=len(self.steps),
            viewport=viewport,
            system_names=SYSTEM_NAMES,
            launch_args=f"[{q(LAUNCH_ARG)}] + " if self.uses_page_tools else "",
            start=f"    page.goto({q(self.start_url)})\n" if self.start_url.startswith("http") else "",
            body="".join(f"    {line}\n" for line in body),
        )


def _messages(output: str) -> list[tuple[str, str]]:
    found = []
    for line in output.splitlines():
        match = _MESSAGE.match(line.strip())
        if match:
            found.append((match.group(1), str(_json_text(match.group(2)))))
    return found


def _json_text(quoted: str) -> str:
    try:
        return str(json.loads(quoted))
    except ValueError:
        return ""


Writer = Callable[[ScriptRun, list[str], dict[str, Any]], Awaitable[list[str]]]


async def _goto(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    url = str(kinds.parse_value("url", args[0], "goto URL"))  # `localhost:3000` as Playwright needs it
    run.last_url = url
    return [f"page.goto({q(url)})"]


def _page_call(call: str) -> Writer:
    async def write(run: ScriptRun, args: list[str], flags: dict[str, Any]) -> list[str]:
        return [call.format(*(q(a) for a in args))]

    return write


def _element_call(method: str) -> Writer:
    async def write(run: ScriptRun, args: list[str], flags: dict[str, Any]) -> list[str]:
        return [f"{await run.target(args[0])}.{method}()"]

    return write


async def _fill(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    """Every SEL TEXT pair of the call, each as its kind of field takes it (see `action.fields`)."""
    lines: list[str] = []
    for selector, text in zip(args[::2], args[1::2], strict=False):
        lines += await _fill_one(run, selector, text)
    return lines


async def _fill_one(run: ScriptRun, selector: str, text: str) -> list[str]:
    where = await run.target(selector)
    kind = await run.field_kind(selector)
    if kind == "password" or (kind in ("", "text") and await run.is_password(selector)):
        return [f"{where}.fill({run.secret()})  # the password is not kept in this file"]
    if kind in ("checkbox", "radio"):
        on = text.strip().lower() in YES
        return [f"{where}.set_checked({on})", f"expect({where}).{'' if on else 'not_'}to_be_checked()"]
    if kind == "select":
        value = await run.selected_value(selector)
        if value is None:  # the page has gone: the option's name is what `fill` was given
            return [f"{where}.select_option(label={q(text)})"]
        return [f"{where}.select_option({q(value)})", f"expect({where}).to_have_value({q(value)})"]
    if kind == "slider":
        said = plain(f"# browse fill {selector} {text}")
        return [f"{said}: a slider, moved by its arrow keys; no Playwright step"]
    return [f"{where}.fill({q(text)})", f"expect({where}).to_have_value({q(text)})"]


async def _type(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    if len(args) == 1:  # typed into the focused element, which `type` leaves focused
        secret = await run.is_password(":focus")
        return [f"page.keyboard.type({run.secret() if secret else q(args[0])})"]
    text = run.secret() if await run.is_password(args[0]) else q(args[1])
    return [f"{await run.target(args[0])}.press_sequentially({text})"]


async def _checked(run: ScriptRun, args: list[str], flags: dict[str, Any], on: bool) -> list[str]:
    where = await run.target(args[0])
    return [
        f"{where}.{'check' if on else 'uncheck'}()",
        f"expect({where}).{'' if on else 'not_'}to_be_checked()",
    ]


async def _check(run: ScriptRun, args: list[str], flags: dict[str, Any]) -> list[str]:
    return await _checked(run, args, flags, True)


async def _uncheck(run: ScriptRun, args: list[str], flags: dict[str, Any]) -> list[str]:
    return await _checked(run, args, flags, False)


async def _select(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    values = ", ".join(q(v) for v in args[1:])
    return [f"{await run.target(args[0])}.select_option([{values}])"]


async def _drag(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    place = kinds.parse_value("place", args[1], "DST")
    if not isinstance(place, tuple):
        return [f"{await run.target(args[0])}.drag_to({await run.target(args[1])})"]
    kind, x, y = str(place[0]), float(place[1]), float(place[2])
    centre = "box['x'] + box['width'] / 2, box['y'] + box['height'] / 2"
    end = f"box['x'] + box['width'] / 2 + {x:g}, box['y'] + box['height'] / 2 + {y:g}"
    return [
        f"box = {await run.target(args[0])}.bounding_box()",
        f"page.mouse.move({centre})",
        "page.mouse.down()",
        f"page.mouse.move({end if kind == 'offset' else f'{x:g}, {y:g}'}, steps=12)",
        "page.mouse.up()",
    ]


async def _mouse(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    if args[0] in ("move", "wheel"):
        return [f"page.mouse.{args[0]}({_number(args[1])}, {_number(args[2])})"]
    button = args[1] if len(args) > 1 else "left"
    return [f"page.mouse.{args[0]}(button={q(button)})"]


def _number(text: str) -> str:
    """A number the registry took, as Python source (`float("inf")` rather than a bare `inf`)."""
    try:
        value = float(text)
    except ValueError:
        return f"float({q(text)})"
    return repr(value) if math.isfinite(value) else f"float({q(str(value))})"


async def _wait(run: ScriptRun, args: list[str], flags: dict[str, Any]) -> list[str]:
    if args and args[0].isascii() and args[0].isdigit():
        return [f"page.wait_for_timeout({args[0]})"]
    if args:
        return [f"expect({await run.target(args[0])}).to_be_visible()"]
    if "--text" in flags:
        return [f"expect(page.get_by_text({q(flags['--text'])}).first).to_be_visible()"]
    if "--gone" in flags:
        return [f"expect({await run.target(str(flags['--gone']))}).to_be_hidden()"]
    if "--fn" in flags:
        return [f"page.wait_for_function({q(flags['--fn'])})"]
    if "--url" in flags:
        pattern = str(flags["--url"])
        glob = pattern if "*" in pattern else f"**{pattern}*"
        return [f"page.wait_for_url({q(glob)})"]
    state = "networkidle" if "--networkidle" in flags else "load"
    return [f"page.wait_for_load_state({q(state)})"]


async def _dismiss_dialogs(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    return ['DIALOGS["accept"] = False']


async def _accept_dialogs(run: ScriptRun, args: list[str], _: dict[str, Any]) -> list[str]:
    answer = q(args[0]) if args else "None"
    return ['DIALOGS["accept"] = True', f'DIALOGS["prompt"] = {answer}']


_WRITERS: dict[str, Writer] = {
    "goto": _goto,
    "back": _page_call("page.go_back()"),
    "forward": _page_call("page.go_forward()"),
    "reload": _page_call("page.reload()"),
    "click": _element_call("click"),
    "dblclick": _element_call("dblclick"),
    "hover": _element_call("hover"),
    "scroll": _element_call("scroll_into_view_if_needed"),
    "fill": _fill,
    "type": _type,
    "press": _page_call("page.keyboard.press({})"),
    "keydown": _page_call("page.keyboard.down({})"),
    "keyup": _page_call("page.keyboard.up({})"),
    "check": _check,
    "uncheck": _uncheck,
    "select": _select,
    "drag": _drag,
    "mouse": _mouse,
    "wait": _wait,
    "dialog-dismiss": _dismiss_dialogs,
    "dialog-accept": _accept_dialogs,
    "tool": tool_step,
}
