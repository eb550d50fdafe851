"""The work a page schedules that is due soon, counted so that a wait can end once it has run.

From an action's start, and from a new document's start (the session's init
script, `from_document_start`), until the first wait for quiet after it
ends, the page's `setTimeout`, `requestAnimationFrame`, their cancels and a few
message senders are proxies that count what was scheduled (`WORK_JS`): the
wait can then end a frame after the last of it rather than a fixed window
after the input or the load. The page's own functions are put back after
(unless the page replaced them meanwhile); a proxy the page kept meanwhile
does what the function did. What the count cannot see (a timer set through a
function the page kept from before the action, later than `SHORTEST_MS`) is
the price of that shorter wait; a worker, socket, storage or file read brings
back the whole window. Whatever the page does with those functions, the wait
is never longer than that window, nor shorter than `SHORTEST_MS` and a frame.

The script keeps what it counts under its own name beside the probe (see
`pageprobe`), which adopts it; the daemon never calls it directly.
"""

from __future__ import annotations

import json

from refbrowse.daemon.core.devtools.scripts import script

# Timers of up to TRACKED_MS and animation frames are counted until they have run (and whatever they
# set in turn); so is a timer of up to LATER_MS that an input's handler set (a submit's status shown
# 600 ms later), and the first wait is not over before it has run; a message to a worker, socket,
# another context or storage marks the wait as one whose answer cannot be seen coming.
WORK_JS = script("page_work")


def from_document_start(key: str) -> str:
    """An init script: the new document counts its work under `key` from its start."""
    return f"({WORK_JS})({json.dumps(key)}).track(true, true);"
