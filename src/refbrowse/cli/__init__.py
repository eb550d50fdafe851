"""The CLI side: the `browse` command, standard library only.

`main` turns argv into one request (checked by `argv` against the registry),
finds the workspace's daemon (`workspace`), starts one when none answers
(`launcher`, the cold path) and sends the request over a raw socket
(`client`, `wire`). Nothing here imports Playwright, aiohttp or the daemon.
"""
