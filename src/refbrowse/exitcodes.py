"""The one set of exit codes, shared by the CLI and the daemon.

A plain class of int constants rather than an IntEnum: `enum` costs the CLI's
warm path ~3 ms to import, and the values only ever go to `sys.exit`.
"""

from __future__ import annotations


class ExitCode:
    OK = 0
    PAGE_ERROR = 1  # the command failed on the page: element not found, navigation error
    USAGE = 2  # unknown command, bad flag or argument
    UNAVAILABLE = 3  # daemon or browser unavailable
    TIMEOUT = 4
    CONFIRM = 5  # held for a person's consent: `browse confirm ID` runs it, `browse deny ID` drops it
    INTERRUPTED = 130
