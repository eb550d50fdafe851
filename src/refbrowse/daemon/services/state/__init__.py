"""Login state on disk: each session's persisted storage state and named snapshots.

`files` reads, checks and writes storage-state files (0600, atomic); `persister`
keeps each session's file current from the daemon without touching the
request path. The `state` handlers and the daemon's hooks use both.
"""
