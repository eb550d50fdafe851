"""A multi-session load: memory of the daemon, the driver and Chromium per 1,000 commands.

`BROWSE_LOAD_SESSIONS` sessions (default 20) each run a loop of the commands an
agent runs most (goto, snapshot -i, click, text, js) against a small local
site, one session per thread, until `BROWSE_LOAD_COMMANDS` commands (default
3,000) are done. After every 1,000 the RSS of each role is sampled; the rows
show it and what each 1,000 commands added, so a per-command leak shows as a
steady rise rather than a peak.
"""

from __future__ import annotations

import os
import threading

from common import Site, Workspace, roles, rss_mb

SESSIONS = int(os.environ.get("BROWSE_LOAD_SESSIONS", "20"))
COMMANDS = int(os.environ.get("BROWSE_LOAD_COMMANDS", "3000"))
EVERY = 1000

PAGE = "<title>p{n}</title><h1>Page {n}</h1><p>Some text.</p><a href='/load/{m}'>next</a><button>Go</button>"


def _memory(daemon: int) -> dict[str, float]:
    return {role: sum(rss_mb(p) for p in pids) for role, pids in roles(daemon).items()}


class Load:
    def __init__(self, ws: Workspace, site: Site) -> None:
        self.ws, self.site = ws, site
        self.done = 0
        self.failed = 0
        self.samples: list[tuple[int, dict[str, float]]] = []
        self._lock = threading.Lock()

    def session(self, index: int) -> None:
        name = f"s{index}"
        steps = 0
        while True:
            url = self.site.url(f"/load/{steps % 5}")
            step = [("goto", url), ("snapshot", "-i"), ("click", "button"), ("text", "h1"), ("js", "1+1")]
            args = step[steps % len(step)]
            steps += 1
            result = self.ws.run("--session", name, *args, timeout=120)
            if not self._count(result.code == 0):
                return

    def _count(self, ok: bool) -> bool:
        with self._lock:
            if self.done >= COMMANDS:
                return False
            self.done += 1
            self.failed += not ok
            if self.done % EVERY == 0:
                daemon = self.ws.daemon_pid()
                if daemon:
                    self.samples.append((self.done, _memory(daemon)))
            return True


def run() -> list[tuple[str, str, str, str, str]]:
    site = Site()
    for n in range(5):
        site.page(f"/load/{n}", PAGE.format(n=n, m=(n + 1) % 5))
    ws = Workspace("load")
    try:
        ws.run("goto", site.url("/load/0"))
        daemon = ws.daemon_pid()
        start = _memory(daemon) if daemon else {}
        load = Load(ws, site)
        threads = [threading.Thread(target=load.session, args=(i,)) for i in range(SESSIONS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        ws.close()
    rows = [("0", *(f"{start.get(r, 0):.0f}" for r in ("daemon", "driver", "chromium")), "start")]
    previous = start
    for done, mb in load.samples:
        grew = " / ".join(f"{mb[r] - previous.get(r, 0):+.0f}" for r in ("daemon", "driver", "chromium"))
        rows.append((f"{done:,}", *(f"{mb[r]:.0f}" for r in ("daemon", "driver", "chromium")), grew))
        previous = mb
    rows.append((f"{load.done:,} commands, {SESSIONS} sessions", "", "", "", f"{load.failed} failed"))
    return rows
