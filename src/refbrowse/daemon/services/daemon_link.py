"""What the services may know of the daemon that runs them: its browser, its folder, a way to run a command.

The activity page's chat and cookie picker run commands as the CLI would;
they see the daemon only through this protocol, which the daemon's server
satisfies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from refbrowse.daemon.core.browser.host import BrowserHost
    from refbrowse.daemon.core.io.request import CheckedRequest
    from refbrowse.specs import Result


class DaemonLink(Protocol):
    host: BrowserHost
    state_dir: str

    async def dispatch(self, request: CheckedRequest) -> Result:
        """Run one command, as the CLI would."""
        ...
