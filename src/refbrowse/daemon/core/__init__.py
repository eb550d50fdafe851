"""The daemon's lowest layer, in five parts with a job each:

- `browser`: the browser and its driver: found, launched or reached, watched, revived, switched;
  Playwright's errors mapped to ours.
- `sessions`: sessions and their tabs, the refs of each tab, what other layers add to them.
- `devtools`: the kept DevTools session of each page, the daemon's own CDP link, the page scripts.
- `runtime`: the daemon process's upkeep: time bounds, background tasks, heap, logs, traces.
- `io`: what crosses a command's edges: the request, the reply, fenced page text, notices, safe files.

Nothing here knows of pages' content, actions or commands; every layer above
(`page`, `action`, `services`, `command`, `handlers`) may import from here.
"""
