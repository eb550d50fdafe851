"""The daemon process's own upkeep: time bounds, background tasks, heap, logs, traces, the last exit."""
