"""What the daemon's Python heap keeps, in daemon.log (`memwatch:` lines), when asked by the environment.

Off by default and free when off. Every `EVERY_S`, after a full collection (so what is counted is kept,
not garbage in cycles):

- `BROWSE_MEMCENSUS=1` (cheap): the live Playwright objects by class (Request, Response, Route, ...),
  each with how many of them the connection still holds. The driver disposes of the oldest objects of
  a kind past its cap and the client then forgets them, so a count that keeps rising past the cap while
  the connection holds fewer is something of the daemon's keeping disposed objects. With it, the
  objects the collector tracks and the blocks Python's allocator holds: a structure of any other kind
  kept per request shows as counts that keep rising once the census is flat; and the arenas (1 MiB
  each) the allocator holds them in, which rise when freed blocks scatter between live ones.
- `BROWSE_TRACEMALLOC=1` (slow: every allocation is traced from the start): the census, the traced heap
  and the lines that grew most since the first look, with their count of blocks.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import sys
import tempfile
import tracemalloc
from collections import Counter

from playwright._impl.channel_owner import ChannelOwner

log = logging.getLogger("refbrowse")
TRACING = bool(os.environ.get("BROWSE_TRACEMALLOC"))
COUNTING = TRACING or bool(os.environ.get("BROWSE_MEMCENSUS"))
EVERY_S = 30.0
TOP = 12
FRAMES = 6
_ARENAS_NOW = re.compile(r"# arenas allocated current\s*=\s*([\d,]+)")
_ARENAS_MOST = re.compile(r"# arenas highwater mark\s*=\s*([\d,]+)")


def census() -> str:
    """The live Playwright objects by class, most first: `Request 9600/9500` is 9600 alive, 9500 held."""
    live: Counter[str] = Counter()
    held: Counter[str] = Counter()
    for obj in gc.get_objects():
        if isinstance(obj, ChannelOwner):
            name = type(obj).__name__
            live[name] += 1
            held[name] += obj._connection._objects.get(obj._guid) is obj
    return " ".join(f"{name} {count}/{held[name]}" for name, count in live.most_common())


def arenas() -> str:
    """How many 1 MiB arenas Python's allocator holds now, and the most it held (from its own report,
    which it writes to the process's stderr: read through a file put there for the moment)."""
    with tempfile.TemporaryFile() as report:
        saved = os.dup(2)
        try:
            os.dup2(report.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        report.seek(0)
        text = report.read().decode(errors="replace")
    now, most = _ARENAS_NOW.search(text), _ARENAS_MOST.search(text)
    return f"{now.group(1)} arenas (at most {most.group(1)})" if now and most else "arenas unknown"


def _log_growth(first: tracemalloc.Snapshot) -> None:
    now = tracemalloc.take_snapshot().filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),))
    total = sum(stat.size for stat in now.statistics("filename"))
    log.info("memwatch: traced heap %.1f MB", total / 1e6)
    for stat in now.compare_to(first, "traceback")[:TOP]:
        where = " < ".join(f"{os.path.basename(f.filename)}:{f.lineno}" for f in stat.traceback[:FRAMES])
        log.info("memwatch: %+.1f kB in %+d blocks at %s", stat.size_diff / 1e3, stat.count_diff, where)


async def watch() -> None:
    """Log the census (and the heap's growth when tracing) every `EVERY_S`, until cancelled (only when on)."""
    if not COUNTING:
        return
    if TRACING:
        tracemalloc.start(FRAMES)
    first = tracemalloc.take_snapshot() if TRACING else None
    while True:
        await asyncio.sleep(EVERY_S)
        gc.collect()  # what is kept, not garbage in cycles that the next full collection frees
        log.info("memwatch: live playwright objects (alive/held by the connection) %s", census())
        heap = len(gc.get_objects()) + gc.get_freeze_count(), sys.getallocatedblocks()  # frozen at start too
        said = "memwatch: python heap %d objects tracked by the collector, %d blocks allocated, %s"
        log.info(said, *heap, arenas())
        if first is not None:
            _log_growth(first)
