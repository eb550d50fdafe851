"""Whether Playwright's driver, not the page, is why nothing answers.

Every command reaches Chromium through the driver (a node process). A driver
that is stopped (SIGSTOP, a debugger) makes every page look hung: before a page
is blamed, and its tab thrown away, this says whether the driver is at fault,
and the error then says so and how to go on.
"""

from __future__ import annotations

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.errors import Unavailable


def stopped(pid: int | None) -> bool:
    """True when process `pid` is stopped (by a signal, or traced)."""
    if not pid:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("T", "t")
    except (OSError, IndexError):
        return False


def stopped_error(pid: int | None) -> Unavailable:
    return Unavailable(
        f"Playwright's driver process (pid {pid}) is stopped (SIGSTOP, or a debugger holds it), not the page:"
        " no command reaches the browser while it is",
        f"let it go on with `kill -CONT {pid}`, or run `browse restart`",
    )


async def at_fault(host: BrowserHost) -> Unavailable | None:
    """The driver's fault when a page seems not to answer: it is stopped. None otherwise.

    Only the process's state is asked: a round trip to the browser is no test, as a page's
    endless dialogs hold one up as well."""
    return stopped_error(host.driver_pid) if stopped(host.driver_pid) else None
