"""Command handlers: one small coroutine per command, grouped by theme.

A handler takes a `Call` (the parsed request, its session and current tab) and
returns the text to print, or raises a `BrowseError`. `HANDLERS` maps every
daemon-side command of the registry to its handler; a test checks they match.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from playwright.async_api import Page

from refbrowse.errors import Unavailable
from refbrowse.session import BrowserHost, Session, Tab


class DaemonView(Protocol):
    """What handlers may know of the daemon that runs them, and the hooks they may add to."""

    pid: int
    port: int
    started: float
    state_dir: str
    host: BrowserHost
    # called after every command with (command name, session or None)
    after_command: list[Callable[[str, Session | None], None]]
    # awaited at shutdown, before the browser closes
    on_shutdown: list[Callable[[], Awaitable[None]]]
    # extra lines for `status`
    status_lines: list[Callable[[], str]]

    def idle_seconds_left(self) -> float: ...

    def request_stop(self) -> None: ...

    async def wait_for_browser(self) -> None:
        """Wait until the browser has started; raise `Unavailable` if it cannot."""
        ...

    async def dispatch(self, body: dict[str, Any]) -> dict[str, Any]:
        """Run one command given as the CLI's request body (used by `chain`)."""
        ...


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    args: list[str]
    flags: dict[str, str | bool]
    raw: bool
    action_timeout_ms: int
    nav_timeout_ms: int
    daemon: DaemonView
    current_session: Session | None = None
    current_tab: Tab | None = None
    json: bool = False  # the caller asked for machine output (`--json`)
    stdin: str | None = None  # what the CLI read from stdin, for commands whose spec says "stdin"

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

    def arg(self, index: int, default: str | None = None) -> str | None:
        return self.args[index] if index < len(self.args) else default


Handler = Callable[[Call], Awaitable[str]]
HANDLERS: dict[str, Handler] = {}


def handler(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return register


def load_all(daemon: DaemonView | None = None) -> dict[str, Handler]:
    """Import every handler module (each registers itself) and return the table.

    A module may define `setup(daemon)` to add hooks (event capture, state
    saving) to the daemon and its browser; it is called once per daemon.
    """
    package = importlib.import_module("refbrowse.handlers")
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"refbrowse.handlers.{info.name}")
        setup = getattr(module, "setup", None)
        if daemon is not None and setup is not None:
            setup(daemon)
    return HANDLERS
