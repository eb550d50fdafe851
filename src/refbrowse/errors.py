"""The errors a command can end with, on either side, each carrying its exit code and a next step.

    BrowseError                 exit 1 unless a subclass says otherwise
    ├── UsageError              2  bad command, flag or argument (the CLI catches most
    │                              before it sends anything; see `refbrowse.kinds`)
    ├── PageError               1  the command failed on the page
    │   ├── ElementNotFound        no element matches a selector
    │   ├── StaleRef               a ref that is not in the latest snapshot
    │   └── NavigationError        a page did not load
    ├── Unavailable             3  the daemon or browser cannot serve the command
    ├── ActionTimeout           4  the page did not get there in time
    ├── ConsentNeeded           5  a consequential action held until a person confirms it
    └── StepFailed              the exit code of a failed step of a `chain`

Every error has a `message` (what went wrong, naming the bad input), a `hint`
(the next step), an `exit_code` (an `ExitCode`) and `output`: what the command
printed before it failed. The CLI and the daemon each turn one into a result
in one place (`protocol.failure`). Playwright's exceptions are translated in
`refbrowse.daemon.core.browser.pwerrors`. Standard library only: the CLI imports this.
"""

from __future__ import annotations

from refbrowse.exitcodes import ExitCode

MESSAGE_CHARS = 1000  # an argument of megabytes is named, never echoed back whole


def _cut(text: str) -> str:
    left_out = len(text) - MESSAGE_CHARS
    return text if left_out <= 0 else f"{text[:MESSAGE_CHARS]}… ({left_out:,} more characters)"


class BrowseError(Exception):
    exit_code: int = ExitCode.PAGE_ERROR

    def __init__(self, message: str, hint: str = "", output: str = "") -> None:
        message = _cut(message)
        super().__init__(message)
        self.message = message
        self.hint = _cut(hint)
        self.output = output


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


class ConsentNeeded(BrowseError):
    """The consent policy holds this action: it did not run (`browse confirm ID` runs it)."""

    exit_code = ExitCode.CONFIRM


class StepFailed(BrowseError):
    """A step of a multi-step command failed: its exit code, after what the earlier steps printed."""

    def __init__(self, message: str, hint: str, exit_code: int, output: str) -> None:
        super().__init__(message, hint, output)
        self.exit_code = exit_code
