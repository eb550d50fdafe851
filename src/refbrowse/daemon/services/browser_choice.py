"""A browser chosen at run time (`connect`, `handoff`) lasts until `stop`: then it is forgotten."""

from __future__ import annotations

from refbrowse.daemon.core.browser.target import forget
from refbrowse.daemon.core.sessions.session import Session


class ChosenBrowser:
    def __init__(self, state_dir: str) -> None:
        self.state_dir = state_dir

    def after_command(self, command: str, session: Session | None) -> None:
        if command == "stop" and self.state_dir:
            forget(self.state_dir)
