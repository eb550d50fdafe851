"""Command handlers: one small coroutine per command, grouped by theme.

Each module marks its handlers with `refbrowse.daemon.command.handler`;
`command.collect` finds them here. Handler modules never import each other:
what two of them share lives in a layer below (`action`, `page`, `services`).
"""
