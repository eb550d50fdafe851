"""A multi-session load for a few minutes: memory of the daemon, the driver and Chromium over time.

`BROWSE_LOAD_SESSIONS` sessions (default 20) each run a loop of the commands an
agent runs most (goto, snapshot -i, click, text, js) against a small local
site, one session per thread, for `BROWSE_LOAD_SECONDS` (default 180). Every
`SAMPLE_S` the RSS of each role is sampled with the count of commands done so
far; the rows show the samples, and the last rows what each role grew per 1,000
commands over the run, and over its second half (after the warm-up of twenty
new sessions), so a per-command leak shows as a steady rise rather than a peak;
how long each command took, as the agent's `browse` process saw it (p50, p95,
p99, the slowest), and the machine's load average (1 minute) through the run.
"""

from __future__ import annotations

import os
import threading
import time

from common import Site, Workspace, roles, rss_mb

SESSIONS = int(os.environ.get("BROWSE_LOAD_SESSIONS", "20"))
SECONDS = float(os.environ.get("BROWSE_LOAD_SECONDS", "180"))
SAMPLE_S = max(15.0, SECONDS / 20)  # about twenty rows however long the run
ROLES = ("daemon", "driver", "chromium")

PAGE = "<title>p{n}</title><h1>Page {n}</h1><p>Some text.</p><a href='/load/{m}'>next</a><button>Go</button>"

Sample = tuple[float, int, dict[str, float]]  # seconds into the run, commands done, MB by role


def _memory(daemon: int) -> dict[str, float]:
    return {role: sum(rss_mb(p) for p in pids) for role, pids in roles(daemon).items()}


class Load:
    def __init__(self, ws: Workspace, site: Site) -> None:
        self.ws, self.site = ws, site
        self.done = 0
        self.failed = 0
        self.started = time.monotonic()
        self.samples: list[Sample] = []
        self.took: list[float] = []  # seconds, each command's
        self.loads: list[float] = []  # the 1-minute load average at each sample
        self._lock = threading.Lock()

    def over(self) -> bool:
        return time.monotonic() - self.started >= SECONDS

    def session(self, index: int) -> None:
        name = f"s{index}"
        steps = 0
        while not self.over():
            url = self.site.url(f"/load/{steps % 5}")
            step = [("goto", url), ("snapshot", "-i"), ("click", "button"), ("text", "h1"), ("js", "1+1")]
            args = step[steps % len(step)]
            steps += 1
            began = time.monotonic()
            result = self.ws.run("--session", name, *args, timeout=120)
            with self._lock:
                self.took.append(time.monotonic() - began)
                self.done += 1
                self.failed += result.code != 0

    def sampler(self, daemon: int) -> None:
        last = time.monotonic()
        while not self.over():
            time.sleep(0.5)
            if time.monotonic() - last >= SAMPLE_S:
                self.sample(daemon)
                last = time.monotonic()

    def sample(self, daemon: int) -> None:
        self.samples.append((time.monotonic() - self.started, self.done, _memory(daemon)))
        self.loads.append(os.getloadavg()[0])


def _per_thousand(first: Sample, last: Sample) -> str:
    commands = max(1, last[1] - first[1])
    return " / ".join(f"{(last[2][r] - first[2].get(r, 0)) * 1000 / commands:+.1f}" for r in ROLES)


def run() -> list[tuple[str, str, str, str, str]]:
    site = Site()
    for n in range(5):
        site.page(f"/load/{n}", PAGE.format(n=n, m=(n + 1) % 5))
    ws = Workspace("load")
    try:
        ws.run("goto", site.url("/load/0"))
        daemon = ws.daemon_pid() or 0
        load = Load(ws, site)
        load.sample(daemon)
        threads = [threading.Thread(target=load.session, args=(i,)) for i in range(SESSIONS)]
        threads.append(threading.Thread(target=load.sampler, args=(daemon,)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        load.sample(daemon)
    finally:
        ws.close()
    return _rows(load)


def _rows(load: Load) -> list[tuple[str, str, str, str, str]]:
    rows = [
        (f"{at:.0f} s", f"{done:,}", *(f"{mb.get(r, 0):.0f}" for r in ROLES)) for at, done, mb in load.samples
    ]
    first, last = load.samples[0], load.samples[-1]
    middle = min(load.samples, key=lambda s: abs(s[1] - last[1] / 2))
    rows.append(("MB per 1,000 commands", "whole run", *_per_thousand(first, last).split(" / ")))
    rows.append(("MB per 1,000 commands", "second half", *_per_thousand(middle, last).split(" / ")))
    took = last[0]
    rows.append(
        (
            f"{took:.0f} s, {SESSIONS} sessions",
            f"{load.done:,} commands",
            f"{load.failed} failed",
            f"{load.done / max(took, 1):.1f} commands/s",
            "",
        )
    )
    p50, p95, p99, slowest = _percentiles(load.took)
    rows.append(("seconds a command took", p50, p95, p99, slowest))
    low, high = _spread(load.loads)
    rows.append(("machine load (1 min)", low, high, "", ""))
    return rows


def _percentiles(took: list[float]) -> tuple[str, str, str, str]:
    ranked = sorted(took) or [0.0]

    def at(share: float) -> float:
        return ranked[min(len(ranked) - 1, int(share * len(ranked)))]

    return (f"p50 {at(0.5):.2f}", f"p95 {at(0.95):.2f}", f"p99 {at(0.99):.2f}", f"max {ranked[-1]:.2f}")


def _spread(loads: list[float]) -> tuple[str, str]:
    loads = loads or [0.0]
    return (f"min {min(loads):.1f} · mean {sum(loads) / len(loads):.1f}", f"max {max(loads):.1f}")
