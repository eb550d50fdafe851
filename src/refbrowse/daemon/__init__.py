"""The daemon side: one process per workspace that keeps Chromium alive.

`bootstrap` takes the workspace's life lock and starts the browser; `server`
serves the CLI's requests and dispatches them to `handlers`, which act through
`session` (Playwright) and `snapshot`. Nothing under `refbrowse.cli` imports
from here: the CLI's warm path must stay free of Playwright and aiohttp.
"""
