"""What an action needs of the command that runs it, as protocols a handler's `Call` satisfies.

The action layer sits below the command layer, so it names what it uses
instead of importing `Call`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from playwright.async_api import Page

from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.runtime.logbuffer import DialogEntry, RingBuffer
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import PageReport
from refbrowse.daemon.page.popups import PopupCounters
from refbrowse.daemon.page.tabguard import TabGuard


class DialogSource(Protocol):
    @property
    def dialogs(self) -> RingBuffer[DialogEntry]: ...


class SettingsView(Protocol):
    """The session's settings (routes, emulation…) as an action needs them."""

    async def ready(self, page: Page) -> None:
        """Until a new tab has the session's settings, before it loads anything."""
        ...

    def marks(self, session: Session) -> dict[str, int]:
        """Where the routes' hit counts stand, so the report can name what answered since."""
        ...

    def report(self, session: Session, marks: dict[str, int], page_url: str) -> list[str]:
        """The report's lines for requests the session's routes answered or blocked since `marks`."""
        ...


class HeldKeys(Protocol):
    def opens_in_background(self, page: Page) -> bool:
        """Whether `keydown` holds a key that makes a click open a link in a background tab."""
        ...


class ActionServices(Protocol):
    @property
    def clipboards(self) -> HeldKeys: ...

    @property
    def page_logs(self) -> DialogSource: ...

    @property
    def tab_guard(self) -> TabGuard: ...

    @property
    def popups(self) -> PopupCounters: ...

    @property
    def settings(self) -> SettingsView: ...

    @property
    def cdp(self) -> CdpKeeper: ...


class ActingCall(Protocol):
    """What an action needs of the command that runs it (a handler's `Call` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def flags(self) -> dict[str, Any]: ...

    @property
    def tab(self) -> Tab: ...

    @property
    def session(self) -> Session: ...

    @property
    def raw(self) -> bool: ...

    @property
    def json(self) -> bool: ...

    @property
    def nav_timeout_ms(self) -> int: ...

    @property
    def services(self) -> ActionServices: ...


class InputCall(ActingCall, Protocol):
    """What input given straight to the page needs besides: the action's arguments and its page."""

    @property
    def args(self) -> list[Any]: ...

    @property
    def page(self) -> Page: ...

    @property
    def argv_text(self) -> bool:
        """The action's text came in the command line (readable by every local user), not on stdin."""
        ...

    @property
    def stdin_texts(self) -> tuple[int, ...]:
        """The places in `args` of the texts that came on stdin (`-`), not in the command line."""
        ...


@dataclass(frozen=True, slots=True)
class Begun:
    """An action begun in one call: the look before (with the page's state), and the input still to give."""

    before: PageReport
    act: Callable[[], Awaitable[object]]
    secret: bool = False  # the field is a password field
    held: str | None = None  # the key the field or box is held under: the look after reads what it holds


class StoppedAnswering:
    """A tab whose page stopped answering (in its `TabMemory`): no more looks until it is checked,
    so that the tab guard's own check sees the page as it is and can replace it."""

    def __init__(self) -> None:
        self.busy = False
