"""The one exit-code enum, shared by the CLI and the daemon."""

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    PAGE_ERROR = 1  # the command failed on the page: element not found, navigation error
    USAGE = 2  # unknown command, bad flag or argument
    UNAVAILABLE = 3  # daemon or browser unavailable
    TIMEOUT = 4
    INTERRUPTED = 130
