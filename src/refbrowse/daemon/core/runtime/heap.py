"""The daemon's heap: Python's collector kept out of the way of a command, and memory given back when idle.

- A big page's snapshot makes tens of thousands of objects in a few milliseconds (17,000 nodes on
  the Python docs' stdtypes.html). With the collector on, they set off dozens of collections, and at
  times a full one over the whole heap (Playwright's objects up to its caps, hundreds of thousands):
  +50 to +150 ms on a 70 ms build. `paused()` holds the collector while such a build runs, so they
  are counted once when it ends.
- `freeze()`, once the daemon has started: what the imports and the start made lives as long as the
  daemon, so full collections stop going through it.
- `watch()`, while idle after work: a full collection (what `paused` deferred, cycles freed), then
  glibc's `malloc_trim(0)`. Python keeps small objects in arenas of its own and returns an arena when
  it empties; everything larger (Playwright's messages as they come off the driver's pipe, their
  JSON, snapshots) comes from `malloc`, and glibc keeps what is freed inside its heaps. Past
  Playwright's caps the daemon's objects stay flat while that free memory, scattered between live
  blocks, kept its RSS creeping about 0.13 kB a request (RELIABILITY.md); the trim hands every free
  page back, so the RSS follows what is live. A libc without `malloc_trim` (musl, macOS) skips it.

Both run at most every `EVERY_S`, only when a command has ended since the last time, none is in
flight and none came for `IDLE_S`: at Playwright's caps (580,000 objects) a full collection takes
0.2-0.4 s (more on a loaded machine), which a command arriving meanwhile would wait for; the
automatic full collections it replaces came inside commands.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger("refbrowse")
EVERY_S = 30.0
IDLE_S = 5.0  # since the last command: an agent's next one is rarely sooner once it has paused this long


_MALLINFO_FIELDS = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (*_MALLINFO_FIELDS, "fordblks", "keepcost")]


def _libc(name: str, argtypes: list[Any], restype: Any) -> Callable[..., Any] | None:
    """The C library's function `name` (glibc's; None where the libc has none, as musl and macOS)."""
    try:
        found: Callable[..., Any] = getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), name)
    except (OSError, AttributeError):
        return None
    found.argtypes, found.restype = argtypes, restype  # type: ignore[attr-defined] # ctypes' function attrs
    return found


_TRIM = _libc("malloc_trim", [ctypes.c_size_t], ctypes.c_int)
_MALLINFO = _libc("mallinfo2", [], _MallInfo2)


def malloc_state() -> str:
    """What glibc's allocator holds: in use, free inside its heaps, and mapped apart (big blocks)."""
    if _MALLINFO is None:
        return "malloc: not glibc"
    info = _MALLINFO()
    return (
        f"malloc: {info.uordblks / 1e6:.1f} MB in use, {info.fordblks / 1e6:.1f} MB free in its heaps, "
        f"{info.hblkhd / 1e6:.1f} MB mapped apart"
    )


@contextmanager
def paused() -> Iterator[None]:
    """No collection while the block runs (it must not wait on anything: it holds the collector)."""
    if not gc.isenabled():  # nested, or turned off by someone else: leave it as it is
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def freeze() -> None:
    """Leave everything alive now out of every later collection (see the module's docstring). Without
    collecting first: that would cost the cold start ~20 ms for the little garbage a start leaves.
    The start ran with the collector off (`refbrowse.daemon.__main__`): it is on from here."""
    gc.freeze()
    gc.enable()


def tidy() -> None:
    """A full collection, then free pages back to the system where the libc can."""
    gc.collect()
    if _TRIM is not None:
        _TRIM(0)


def rss_mb() -> float:
    """This process's resident memory (0 where /proc is not)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError, IndexError):
        return 0.0


async def watch(last_active: Callable[[], float], busy: Callable[[], bool], told: bool = False) -> None:
    """`tidy` after work, every `EVERY_S` at most, while nothing is in flight; until cancelled. `told`:
    each tidy says in daemon.log what it took and gave back (`memwatch:` lines, for the memory probes)."""
    tidied = time.monotonic()
    while True:
        await asyncio.sleep(EVERY_S)
        if busy() or last_active() <= tidied or time.monotonic() - last_active() < IDLE_S:
            continue
        started, before = time.monotonic(), rss_mb() if told else 0.0
        tidy()
        tidied = time.monotonic()
        if told:
            took = (tidied - started) * 1e3
            log.info(
                "memwatch: tidied in %.0f ms, RSS %.1f -> %.1f MB; %s", took, before, rss_mb(), malloc_state()
            )
