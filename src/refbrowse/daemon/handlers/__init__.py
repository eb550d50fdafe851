"""Command handlers: one small coroutine per command, grouped by theme.

A handler takes a `Call` (the parsed request, its session and current tab,
the daemon's services) and returns the text to print, or raises a
`BrowseError`. `@handler(NAME)` only marks a function; nothing is registered
at import. The daemon builds its table with `collect`, which fails on a
command handled twice; a test checks the table matches the registry.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from playwright.async_api import Page

from refbrowse.daemon.session import BrowserHost, Session, Tab
from refbrowse.daemon.transport import Listening
from refbrowse.errors import Unavailable
from refbrowse.specs import Result

if TYPE_CHECKING:
    from refbrowse.daemon.services import Services


class DaemonView(Protocol):
    """What handlers may know of the daemon that runs them, and the hooks they may add to."""

    pid: int
    port: int  # TCP, 0 when the daemon listens on its Unix socket only
    listening: Listening
    started: float
    state_dir: str
    host: BrowserHost
    # called after every command with (command name, session or None)
    after_command: list[Callable[[str, Session | None], None]]
    # awaited at shutdown, before the browser closes
    on_shutdown: list[Callable[[], Awaitable[None]]]
    # extra lines for `status` (an empty line is left out)
    status_lines: list[Callable[[], str]]
    # one-line warnings, handed to the caller of the next command that ends
    notices: list[str]
    # called with (command name, session name, result) before the result is sent; may add to its hint
    result_hooks: list[Callable[[str, str, Result], None]]
    # awaited with (request body, result, start time, the nested command running it or "") after each command
    record_hooks: list[Callable[[dict[str, Any], Result, float, str], Awaitable[None]]]

    def idle_seconds_left(self) -> float: ...

    def request_stop(self) -> None: ...

    async def wait_for_browser(self) -> None:
        """Wait until the browser has started; raise `Unavailable` if it cannot."""
        ...

    async def dispatch(self, body: dict[str, Any]) -> Result:
        """Run one command given as the CLI's request body (used by `chain`)."""
        ...


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    # Values already checked and parsed by the kinds the registry declares
    # (`refbrowse.kinds`): text as str, numbers as int or float, sizes as tuples.
    args: list[Any]
    flags: dict[str, Any]
    raw: bool
    action_timeout_ms: int
    nav_timeout_ms: int
    daemon: DaemonView
    services: Services
    current_session: Session | None = None
    current_tab: Tab | None = None
    json: bool = False  # the caller asked for machine output (`--json`)
    stdin: str | None = None  # what the CLI read from stdin, for commands whose spec says "stdin"
    argv_text: bool = False  # the text argument came in the CLI's argv, which the process list shows

    @property
    def session(self) -> Session:
        if self.current_session is None:
            raise Unavailable("the browser is not running", "run `browse restart`")
        return self.current_session

    @property
    def tab(self) -> Tab:
        if self.current_tab is None:
            raise Unavailable("the browser is not running", "run `browse restart`")
        return self.current_tab

    @property
    def page(self) -> Page:
        return self.tab.page

    def arg(self, index: int, default: Any = None) -> Any:
        return self.args[index] if index < len(self.args) else default


class Answer(str):
    """A handler's text with its structured value: the result's `data` field under `--json`.

    A `str`, so that every caller of a handler (`chain`, the tab guard) keeps
    treating it as the text it prints.
    """

    data: object

    def __new__(cls, text: str, data: object) -> Answer:
        answer = super().__new__(cls, text)
        answer.data = data
        return answer


def data_of(output: str) -> object:
    """The structured value of a handler's output, None when it has none."""
    return output.data if isinstance(output, Answer) else None


Handler = Callable[[Call], Awaitable[str]]
_MARK = "browse_command"


def handler(name: str) -> Callable[[Handler], Handler]:
    """Mark a coroutine as the handler of command `name` (see `collect`)."""

    def mark(fn: Handler) -> Handler:
        setattr(fn, _MARK, name)
        return fn

    return mark


class DuplicateCommand(Exception):
    """Two handlers claim one command."""


def collect() -> dict[str, Handler]:
    """Every marked handler of this package's modules, by command name."""
    table: dict[str, Handler] = {}
    where: dict[str, str] = {}
    package = importlib.import_module(__name__)
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for attr, value in vars(module).items():
            name = getattr(value, _MARK, None)
            if not isinstance(name, str) or getattr(value, "__module__", None) != module.__name__:
                continue  # a handler imported from another module is counted there
            if name in table:
                raise DuplicateCommand(f"{name} is handled twice: by {where[name]} and {info.name}.{attr}")
            table[name], where[name] = value, f"{info.name}.{attr}"
    return table
