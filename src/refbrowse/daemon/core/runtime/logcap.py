"""Bounds on daemon.log while the daemon runs: a size cap with one old file kept, and
malformed requests told in one rate-limited line each, not a traceback each.

Anyone who can reach a listener (the activity page's TCP port is open to every
local user) can send garbage: 43,891 malformed requests in 20 s once grew the
log by 25 MB, each a full aiohttp traceback. The launcher rotates the log only
at spawn; here the daemon's stdout and stderr (the log) are moved aside and
reopened when the file passes `LIMIT_BYTES` (or `BROWSE_LOG_LIMIT` bytes).
"""

from __future__ import annotations

import logging
import os
import time

LIMIT_BYTES = 5_000_000
CHECK_EVERY = 200  # records between two looks at the file's size
QUIET_S = 10.0  # at most one line about malformed requests in this many seconds


class SizeCap(logging.Filter):
    """Moves daemon.log aside (to daemon.log.1) once it passes `LIMIT_BYTES`; lets every record through."""

    def __init__(self, path: str, limit_bytes: int = LIMIT_BYTES) -> None:
        super().__init__()
        self.path = path
        self.limit_bytes = limit_bytes
        self._seen = 0

    def filter(self, record: logging.LogRecord) -> bool:
        self._seen += 1
        if self._seen % CHECK_EVERY == 0:
            self._rotate_if_big()
        return True

    def _rotate_if_big(self) -> None:
        try:
            if os.fstat(2).st_size <= self.limit_bytes:
                return
            os.replace(self.path, self.path + ".1")
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        except OSError:
            return
        for stream in (1, 2):
            os.dup2(fd, stream)
        os.close(fd)


class OneLineErrors(logging.Filter):
    """aiohttp's per-request errors (a bad request line, a reset): one line, at most every `QUIET_S`."""

    def __init__(self) -> None:
        super().__init__()
        self._last = 0.0
        self._dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now - self._last < QUIET_S:
            self._dropped += 1
            return False
        reason = record.exc_info[1] if record.exc_info else None
        record.msg = "a malformed or broken request: %s%s"
        record.args = (" ".join(str(reason or record.getMessage()).split())[:200], self._dropped_note())
        record.exc_info = None
        record.exc_text = None
        self._last = now
        return True

    def _dropped_note(self) -> str:
        note = f" ({self._dropped} more since the last such line)" if self._dropped else ""
        self._dropped = 0
        return note


def _limit_bytes() -> int:
    """`LIMIT_BYTES`, or `BROWSE_LOG_LIMIT` (bytes) when it is a number."""
    try:
        return max(1, int(os.environ["BROWSE_LOG_LIMIT"]))
    except (KeyError, ValueError):
        return LIMIT_BYTES


def install(log_path: str) -> None:
    """Cap the log at `log_path` when it is the daemon's stderr; quiet aiohttp's request errors."""
    try:
        is_log = os.path.samestat(os.fstat(2), os.lstat(log_path))
    except OSError:
        is_log = False
    if is_log:
        cap = SizeCap(log_path, _limit_bytes())
        for handler in logging.getLogger().handlers:
            handler.addFilter(cap)
    logging.getLogger("aiohttp.server").addFilter(OneLineErrors())
