"""The daemon's services, built once by `assemble`: log capture, the persister, the URL and path policy,
handoffs, the headed extension, the activity page and cookie import.

Imports `action`, `page` and `core`; never `command` or a handler.
"""
