"""The daemon's lowest layer: the browser and its sessions, refs, Playwright's errors, DevTools sessions.

Nothing here knows of pages' content, actions or commands; every layer above
(`page`, `action`, `services`, `command`, `handlers`) may import from here.
"""
