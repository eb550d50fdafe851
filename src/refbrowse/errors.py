"""The errors a command can end with, each carrying its exit code and a next step.

    BrowseError                 exit 1 unless a subclass says otherwise
    ├── UsageError              2  bad argument the registry could not catch
    ├── PageError               1  the command failed on the page
    │   ├── ElementNotFound        no element matches a selector
    │   ├── StaleRef               a ref that is not in the latest snapshot
    │   └── NavigationError        a page did not load
    ├── Unavailable             3  the daemon or browser cannot serve the command
    └── ActionTimeout           4  the page did not get there in time

Handlers raise these; the daemon turns them into a response in one place.
Playwright's own exceptions are translated in `pwerrors`.
"""

from __future__ import annotations

from refbrowse.exitcodes import ExitCode


class BrowseError(Exception):
    exit_code: int = ExitCode.PAGE_ERROR

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(BrowseError):
    exit_code = ExitCode.USAGE


class PageError(BrowseError):
    exit_code = ExitCode.PAGE_ERROR


class ElementNotFound(PageError):
    pass


class StaleRef(PageError):
    pass


class NavigationError(PageError):
    pass


class Unavailable(BrowseError):
    exit_code = ExitCode.UNAVAILABLE


class ActionTimeout(BrowseError):
    exit_code = ExitCode.TIMEOUT
