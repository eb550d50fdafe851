"""How large a number the registry takes may be: every number has a range.

A number past these reaches the browser as it is: a wheel turned by 1e308 pixels
wedged the tab's pointer input until the next page load. The limits are far
past any use and well inside what Chromium, Node and the DevTools protocol hold.
"""

from __future__ import annotations

# A coordinate, distance or scroll in CSS pixels: past any viewport and any page a command means.
MAX_PIXELS = 1_000_000
# Milliseconds: Node's timers overflow past 2^31 ms; an hour is longer than any page needs.
MAX_MS = 3_600_000
# A count or size without a tighter bound of its own: what a signed 32-bit integer holds.
MAX_COUNT = 2_147_483_647
# The viewport's side in CSS pixels: Chromium renders the viewport into one surface, and a giant
# one can wedge the browser for good (a 99999x99999 viewport hung every later screenshot and stop).
MAX_VIEWPORT_SIDE = 10_000
# Device pixels a side (side × scale): Chromium's largest texture.
MAX_DEVICE_SIDE = 16_384
# A cookie's expiry, in seconds since 1970: the last second of the year 9999.
LAST_SECOND = 253_402_300_799
# A download's size in bytes: a terabyte.
MAX_BYTES = 1_000_000_000_000
# A TCP port.
MAX_PORT = 65_535
