"""Hard time bounds on the daemon's work, cleanup included.

`asyncio.wait_for` cancels a late task and then waits for it, without limit, to
finish cancelling: a handler whose cleanup talks to a hung browser keeps its
tab (and the CLI) waiting forever. Here a late or cancelled task gets
`CLEANUP_S` to wind down and is then left behind, so the caller (which holds
the tab's lock outside the task) always gets control back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

log = logging.getLogger("refbrowse")

CLEANUP_S = 3.0

T = TypeVar("T")


class Late(Exception):
    """The work did not finish within its bound (it has been cancelled)."""


async def bounded(work: Awaitable[T], seconds: float | None, what: str) -> T:
    """The result of `work`, or `Late` after `seconds` (None: no bound) plus at most `CLEANUP_S`."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except asyncio.CancelledError:
        await abandon(task, what)
        raise
    if task not in done:
        await abandon(task, what)
        raise Late(what)
    return task.result()


async def abandon(task: asyncio.Future[T], what: str) -> None:
    """Cancel `task` and give it `CLEANUP_S` to end; past that, leave it running alone."""
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=CLEANUP_S)
    if task not in done:
        log.warning("%s: its cleanup did not end within %.0f s; left behind", what, CLEANUP_S)
        task.add_done_callback(_quiet)


def _quiet(task: asyncio.Future[T]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("a task left behind ended with: %s", task.exception())
