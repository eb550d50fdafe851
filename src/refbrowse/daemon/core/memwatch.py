"""`BROWSE_TRACEMALLOC=1` in the daemon's environment: what the daemon's Python heap keeps, in daemon.log.

Off by default and free when off. When on, allocations are traced from the start
and every `EVERY_S`, after a full collection, the lines that grew most since the first look are logged
(`memwatch:` lines, with their count of blocks): a structure kept per command
shows as a line whose size rises with the commands run, under a load.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import tracemalloc

log = logging.getLogger("refbrowse")
WATCHING = bool(os.environ.get("BROWSE_TRACEMALLOC"))
EVERY_S = 30.0
TOP = 12
FRAMES = 6


async def watch() -> None:
    """Log the heap's biggest growth since the start every `EVERY_S`, until cancelled (only when on)."""
    if not WATCHING:
        return
    tracemalloc.start(FRAMES)
    first = tracemalloc.take_snapshot()
    while True:
        await asyncio.sleep(EVERY_S)
        gc.collect()  # what is kept, not garbage in cycles that the next full collection frees
        now = tracemalloc.take_snapshot().filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),))
        grew = now.compare_to(first, "traceback")[:TOP]
        total = sum(stat.size for stat in now.statistics("filename"))
        log.info("memwatch: traced heap %.1f MB", total / 1e6)
        for stat in grew:
            where = " < ".join(f"{os.path.basename(f.filename)}:{f.lineno}" for f in stat.traceback[:FRAMES])
            log.info("memwatch: %+.1f kB in %+d blocks at %s", stat.size_diff / 1e3, stat.count_diff, where)
