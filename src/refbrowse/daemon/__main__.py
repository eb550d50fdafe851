"""`python -m refbrowse.daemon`: the daemon process, started by the CLI's launcher.

Playwright's node driver starts before anything else is imported (see `driver`).
"""

import gc

# No collections while the start imports and builds what lives as long as the daemon (~10 % of the
# imports' CPU, which every cold start pays): `heap.freeze` turns the collector back on.
gc.disable()

from refbrowse.daemon.core.browser import driver  # noqa: E402 - after the collector is off

EARLY_DRIVER = driver.spawn_first()

from refbrowse.daemon.bootstrap import main  # noqa: E402 - after the driver has started

raise SystemExit(main(EARLY_DRIVER))
