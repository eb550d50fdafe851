"""A command as the handlers see it: `Call` in, `Reply` (or text) out, and the marking of handlers.

A handler takes a `Call` (the parsed request, its session and current tab,
the daemon's services) and returns the text to print, or raises a
`BrowseError`. `@handler(NAME)` only marks a function; nothing is registered
at import. The daemon builds its table with `collect`, which fails on a
command handled twice; a test checks the table matches the registry.

This module sits above the services and below the handlers: handlers import
it, never each other.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from playwright.async_api import Page

from refbrowse.daemon.core.browser.host import BrowserHost, not_running
from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.io.reply import Reply as Reply
from refbrowse.daemon.core.io.reply import data_of as data_of
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.runtime.timeouts import Timeouts
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.services.bag import Services
from refbrowse.registry import COMMANDS, GLOBAL_FLAGS
from refbrowse.specs import Result

HANDLERS_PACKAGE = "refbrowse.daemon.handlers"


class DaemonView(Protocol):
    """What handlers may know of the daemon that runs them."""

    pid: int
    started: float
    state_dir: str
    log_path: str
    notices: Notices  # one-line notes for the caller of the command that ends next
    host: BrowserHost

    def listening_on(self) -> str:
        """Where the daemon answers: its Unix socket, and a TCP port if it has one."""
        ...

    def status_lines(self) -> list[str]:
        """The services' lines for `status`, in the order `assemble` gives."""
        ...

    def idle_seconds_left(self) -> float: ...

    def request_stop(self) -> None: ...

    async def wait_for_browser(self) -> None:
        """Wait until the browser has started; raise `Unavailable` if it cannot."""
        ...

    async def dispatch(self, request: CheckedRequest) -> Result:
        """Run one command (used by `chain`)."""
        ...


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    # Values already checked and parsed by the kinds the registry declares
    # (`refbrowse.kinds`): text as str, numbers as int or float, sizes as tuples.
    args: list[Any]
    flags: dict[str, Any]
    raw: bool
    session_name: str  # the session the request named; it exists once the browser has started
    timeouts: Timeouts  # the request's --timeout over the daemon's
    daemon: DaemonView
    services: Services
    current_session: Session | None = None
    current_tab: Tab | None = None
    json: bool = False  # the caller asked for machine output (`--json`)
    stdin: str | None = None  # what the CLI read from stdin, for commands whose spec says "stdin"
    argv_text: bool = False  # the text argument came in the CLI's argv, which the process list shows
    stdin_texts: tuple[int, ...] = ()  # …but the texts at these places in `args` came on stdin (`-`)

    @property
    def action_timeout_ms(self) -> int:
        return self.timeouts.action()

    @property
    def nav_timeout_ms(self) -> int:
        return self.timeouts.navigation()

    @property
    def session(self) -> Session:
        if self.current_session is None:
            raise not_running()
        return self.current_session

    @property
    def tab(self) -> Tab:
        if self.current_tab is None:
            raise not_running()
        return self.current_tab

    @property
    def page(self) -> Page:
        return self.tab.page

    def arg(self, index: int, default: Any = None) -> Any:
        return self.args[index] if index < len(self.args) else default

    def flag(self, name: str, default: Any = None) -> Any:
        """The value of flag `name`; a name not in the command's spec is a bug, not None."""
        if name not in COMMANDS[self.name]["flags"] and name not in GLOBAL_FLAGS:
            raise KeyError(f"{self.name} has no flag {name}")
        return self.flags.get(name, default)


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
    package = importlib.import_module(HANDLERS_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{HANDLERS_PACKAGE}.{info.name}")
        for attr, value in vars(module).items():
            name = getattr(value, _MARK, None)
            if not isinstance(name, str) or getattr(value, "__module__", None) != module.__name__:
                continue  # a handler imported from another module is counted there
            if name in table:
                raise DuplicateCommand(f"{name} is handled twice: by {where[name]} and {info.name}.{attr}")
            table[name], where[name] = value, f"{info.name}.{attr}"
    return table
