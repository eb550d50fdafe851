"""How much of a site's storage a saved state may carry, per origin and in all.

A login lives in cookies and a few keys of local storage or IndexedDB; an
offline cache of 60 MB in IndexedDB is not a login, and restoring it took
longer than a command may wait (5 MB 1 s, 20 MB 5 s, 50 MB 21 s, under the
browser's one driver). So before a state is written or restored, each origin's
IndexedDB and local storage are measured as the JSON they are, and what is over
the budget is left out with a note saying what and why: IndexedDB first (the
usual culprit), then the origin's local storage, then, over the total, the
biggest origins. Reading a big IndexedDB is itself slow and blocks the page it
is read in, so the browser is asked first how much each origin keeps on disk.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

if TYPE_CHECKING:
    from refbrowse.daemon.core.sessions.session import Session

MB = 1024 * 1024
PER_ORIGIN_BYTES = 5 * MB
TOTAL_BYTES = 10 * MB
# IndexedDB is compressed on disk: more than this there is taken to be over the per-origin budget
ON_DISK_BYTES = PER_ORIGIN_BYTES // 4

Origin = dict[str, Any]


def within_budget(
    origins: list[Origin], per_origin: int = PER_ORIGIN_BYTES, total: int = TOTAL_BYTES
) -> tuple[list[Origin], list[str]]:
    """The origins cut to the budgets, and one note per part left out."""
    notes: list[str] = []
    trimmed = [_trim(origin, per_origin, notes) for origin in origins]
    order = sorted(range(len(trimmed)), key=lambda i: trimmed[i][1])
    kept: set[int] = set()
    used = 0
    for i in order:  # smallest first: as many sites as fit keep their storage
        origin, size = trimmed[i]
        if used + size <= total:
            kept.add(i)
            used += size
        else:
            notes.append(f"storage of {origin['origin']} ({_mb(size)}: over the {_mb(total)} budget in all)")
    return [origin for i, (origin, _) in enumerate(trimmed) if i in kept], notes


def _trim(origin: Origin, per_origin: int, notes: list[str]) -> tuple[Origin, int]:
    """The origin without the parts that make it bigger than `per_origin`, and its size then."""
    kept = dict(origin)
    sizes = {part: _json_size(origin.get(part)) for part in ("indexedDB", "localStorage")}
    for part, label in (("indexedDB", "IndexedDB"), ("localStorage", "local storage")):
        if sum(sizes.values()) <= per_origin:
            break
        if sizes[part]:
            over = f"over the {_mb(per_origin)} per-site budget"
            notes.append(f"{label} of {origin['origin']} ({_mb(sizes[part])}: {over})")
            kept[part], sizes[part] = [], 0
    return kept, sum(sizes.values())


def _json_size(value: object) -> int:
    if not value:
        return 0
    return len(json.dumps(value, separators=(",", ":")))


def _mb(size: int) -> str:
    return f"{size / MB:.1f} MB"


async def indexeddb_over_budget(session: Session, known: list[str]) -> list[str]:
    """Notes on the origins (of the session's tabs, or `known`) whose IndexedDB is too big to read."""
    pages = [tab.page for tab in session.tabs if not tab.page.is_closed()]
    if not pages:
        return []
    origins = sorted({*known, *(_origin(page.url) for page in pages)} - {""})
    try:
        cdp = await session.context.new_cdp_session(pages[0])
        try:
            usages = [await _indexeddb_bytes(cdp, origin) for origin in origins]
        finally:
            await cdp.detach()
    except PlaywrightError:
        return []  # the tab went away meanwhile: the read's own time bound still holds
    over = f"over the {_mb(PER_ORIGIN_BYTES)} per-site budget"
    sized = zip(origins, usages, strict=True)
    return [f"IndexedDB of {origin} ({_mb(n)} on disk: {over})" for origin, n in sized if n > ON_DISK_BYTES]


async def _indexeddb_bytes(cdp: CDPSession, origin: str) -> int:
    usage = await cdp.send("Storage.getUsageAndQuota", {"origin": origin})
    return sum(
        int(u["usage"]) for u in usage.get("usageBreakdown", []) if u.get("storageType") == "indexeddb"
    )


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""
