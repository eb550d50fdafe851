"""The activity page: a web page the daemon serves on 127.0.0.1 for the person beside the agent.

`feed` records every command the daemon runs; `redact` takes the secrets out of
them first; `access` turns a one-time code into a cookie; `site` serves the
page and its API (`screen` for the live view and takeover, `picker` for the
cookie picker). The listener opens on the first `browse dashboard`.
"""
