"""Fire-and-forget coroutines that event listeners start, kept referenced until they end.

Playwright calls listeners synchronously; work they start (cancel a download,
leave a forbidden page) runs as a task that must not be garbage-collected
half-way, which is what holding it here prevents.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

_tasks: set[asyncio.Future[None]] = set()


def spawn(step: Coroutine[Any, Any, None]) -> None:
    task = asyncio.ensure_future(step)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
