"""Setting refbrowse up on a machine: `browse install` (a browser) and `browse doctor` (a check).

Both run in the CLI's process without a daemon, and only when asked: the CLI's
warm path never imports this package.
"""
