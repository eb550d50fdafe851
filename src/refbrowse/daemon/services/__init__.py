"""Per-session services: state a command sets on a session and the daemon keeps for it.

Each module here owns one kind of state beyond the page itself (the settings a
session carries: routes, headers, emulation...). They are built once in
`daemon/services.py` and reached by handlers as `call.services`.
"""
