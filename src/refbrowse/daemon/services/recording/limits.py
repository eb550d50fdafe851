"""How much a recording may hold: requests, bytes and time. At a limit it stops taking more and says so.

A page firing 100,000 fetches during `har start` made a 57.6 MB HAR and left
Playwright's driver at 711 MB (it keeps every entry until the recording
stops); a 30 s profile of an animated page was 112 MB. So each recording
stops at its limit, which gives the driver's or Chromium's memory back then
rather than at `stop`, and `stop` says what was left out. Files are streamed
to disk, never read whole. Each limit is raised through the environment:

- `BROWSE_HAR_MAX_ENTRIES` (5,000 requests) and `BROWSE_RECORDING_MAX_MB`
  (100 MB of bodies) for a HAR;
- `BROWSE_RECORDING_MAX_MB` for a profile (Chromium's trace buffer), a
  video (its frames on disk) and a trace (its files on disk);
- `BROWSE_RECORDING_MAX_S` (30 minutes) for a HAR, a video and a trace.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

ENTRIES_ENV = "BROWSE_HAR_MAX_ENTRIES"
MB_ENV = "BROWSE_RECORDING_MAX_MB"
SECONDS_ENV = "BROWSE_RECORDING_MAX_S"


def _env_number(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if value > 0 else default


@dataclass(frozen=True, slots=True)
class Limits:
    entries: int
    bytes: int
    seconds: float

    @classmethod
    def from_env(cls) -> Limits:
        return cls(
            entries=int(_env_number(ENTRIES_ENV, 5_000)),
            bytes=int(_env_number(MB_ENV, 100) * 1_000_000),
            seconds=_env_number(SECONDS_ENV, 1_800),
        )

    def said(self, what: str) -> str:
        """The limit named by `what` ("entries", "bytes", "seconds") in words, with the way to raise it."""
        if what == "entries":
            return f"{self.entries:,} requests ({ENTRIES_ENV})"
        if what == "bytes":
            return f"{self.bytes / 1_000_000:g} MB ({MB_ENV})"
        return f"{self.seconds:g} s ({SECONDS_ENV})"
