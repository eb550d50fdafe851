"""`BROWSE_TRACE=1` in the daemon's environment: where a command's time goes, in daemon.log.

Off by default and free when off. Lines start with `trace:`; tests read them to
tell which path a command took (a prepared snapshot or a fresh one), and a
profile reads the time of each step of an action.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable
from typing import TypeVar

log = logging.getLogger("refbrowse")
TRACING = bool(os.environ.get("BROWSE_TRACE"))
T = TypeVar("T")
_LOADED = time.monotonic()  # imported first thing by the daemon's bootstrap: its start, near enough


def note(what: str) -> None:
    if TRACING:
        log.info("trace: %s", what)


_command_at = 0.0  # when the command being traced began (time.perf_counter())


def command_started() -> None:
    """The start `mark` counts from: a command's arrival."""
    global _command_at
    if TRACING:
        _command_at = time.perf_counter()


def mark(label: str) -> None:
    """A point in the current command, with its time since the command arrived."""
    if TRACING:
        log.info("trace: at %s %.1f ms", label, (time.perf_counter() - _command_at) * 1000)


def start_step(label: str) -> None:
    """A step of the daemon's start (up to its first answer), with its time since the daemon began."""
    if TRACING:
        log.info("trace: start: %s at %.0f ms", label, (time.monotonic() - _LOADED) * 1000)


async def timed(label: str, step: Awaitable[T]) -> T:
    """`step`'s value; with tracing on, a line saying how long it took."""
    if not TRACING:
        return await step
    started = time.perf_counter()
    try:
        return await step
    finally:
        log.info("trace: %s %.1f ms", label, (time.perf_counter() - started) * 1000)
