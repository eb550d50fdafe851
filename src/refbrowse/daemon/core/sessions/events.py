"""What other parts of the daemon add to each session and tab, as small protocols.

`assemble` builds one `HostEvents` of ordered tuples and hands it to the
`BrowserHost` once; nothing appends to another object's list. Where the order
matters, `assemble` says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from playwright.async_api import Page

    from refbrowse.daemon.core.sessions.session import Session
    from refbrowse.daemon.core.sessions.tab import Tab


class ContextOptionSource(Protocol):
    async def context_options(self, session: str) -> dict[str, Any]:
        """Extra `new_context` arguments for the session named `session` (a saved state, say)."""
        ...


class SessionStarter(Protocol):
    async def on_new_session(self, session: Session) -> None:
        """Awaited once a session's context exists, and again after a switch, before any page loads."""
        ...


class TabWatcher(Protocol):
    def on_new_tab(self, session: Session, tab: Tab) -> None:
        """Called for every new tab, before anything runs in it (listeners go on here)."""
        ...


class StateRefusalListener(Protocol):
    def on_state_refused(self, session: str, why: str) -> None:
        """The browser would not take a session's saved state back: it opened clean."""
        ...


class TabCarrier(Protocol):
    def on_tab_carried(self, old: Page, new: Page) -> None:
        """`switch` opened `new` to stand in for `old`; it has not loaded the old page's URL yet."""
        ...


class SwitchFollower(Protocol):
    def on_browser_switched(self) -> None:
        """`switch` has replaced the browser under the running sessions."""
        ...


class SavedStateClock(Protocol):
    def saved_at(self, session: str) -> float:
        """When the session's state was last saved to disk (epoch seconds); 0 if never."""
        ...


@dataclass(frozen=True, slots=True)
class HostEvents:
    context_options: tuple[ContextOptionSource, ...] = ()
    session_starters: tuple[SessionStarter, ...] = ()
    tab_watchers: tuple[TabWatcher, ...] = ()
    state_refused: tuple[StateRefusalListener, ...] = ()
    tab_carriers: tuple[TabCarrier, ...] = ()
    switch_followers: tuple[SwitchFollower, ...] = ()
    saved_states: tuple[SavedStateClock, ...] = ()
