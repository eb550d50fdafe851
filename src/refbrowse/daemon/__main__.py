"""`python -m refbrowse.daemon`: the daemon process, started by the CLI's launcher.

Playwright's node driver starts before anything else is imported (see `driver`).
"""

from refbrowse.daemon.core.browser import driver

EARLY_DRIVER = driver.spawn_first()

from refbrowse.daemon.bootstrap import main  # noqa: E402 - after the driver has started

raise SystemExit(main(EARLY_DRIVER))
