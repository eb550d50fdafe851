"""Cold starts of two checkouts in alternation, each from a fresh workspace.

Run: .venv/bin/python bench/cold_ab.py --base /path/to/other/checkout [--runs N] [--trace]

One run is `browse goto URL` with no daemon running (a new temporary state
directory every time) until it exits, then `browse stop`; this checkout and
the other one take turns, the order swapped every run, so drift on a shared
machine hits both alike. Prints the median ms of each, the median of the
run-by-run ratios and the median CPU time of the daemon and every process
under it (driver and browser) when the page has been printed, which the
machine's load sways less than the wall time; with the load average at the
start and the end. With `--trace`, the daemons run with `BROWSE_TRACE=1` and
the median time of each start step (since the step before it, from the
daemon's `trace: start:` lines) is printed too. The page is
bench/fixtures/warm.html, served here.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
STEP = re.compile(r"trace: start: (.+) at (\d+) ms")


class Checkout:
    def __init__(self, path: str, label: str, trace: bool) -> None:
        self.label = label
        self.python = os.path.join(path, ".venv", "bin", "python")
        self.browse = os.path.join(path, ".venv", "bin", "browse")
        self.trace = trace
        self.samples: list[float] = []
        self.cpu: list[float] = []  # ms of CPU time of the daemon and its children, browser included
        self.steps: dict[str, list[float]] = {}

    def cold(self, url: str) -> float:
        state = tempfile.mkdtemp(prefix=f"refbrowse-cold-{self.label}-")
        env = {**os.environ, "BROWSE_STATE_DIR": state, "BROWSE_IDLE_TIMEOUT": "600000"}
        env.pop("BROWSE_SESSION", None)
        env.setdefault("BROWSE_CHROMIUM_PATH", "/usr/bin/chromium")
        if self.trace:
            env["BROWSE_TRACE"] = "1"
        began = time.perf_counter()
        done = subprocess.run([self.browse, "goto", url], env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - began
        if done.returncode != 0 or url not in done.stdout:
            raise SystemExit(f"{self.label}: goto failed ({done.returncode}): {done.stdout}{done.stderr}")
        self.cpu.append(cpu_ms(state))
        subprocess.run([self.browse, "stop"], env=env, capture_output=True, check=False)
        self._read_steps(state)
        shutil.rmtree(state, ignore_errors=True)
        self.samples.append(seconds * 1000)
        return seconds * 1000

    def _read_steps(self, state: str) -> None:
        try:
            with open(os.path.join(state, "daemon.log"), encoding="utf-8", errors="replace") as log:
                text = log.read()
        except OSError:
            return
        steps = sorted((float(at), label) for label, at in STEP.findall(text))
        for (was, _), (at, label) in itertools.pairwise([(0.0, ""), *steps]):
            self.steps.setdefault(label, []).append(at - was)


def cpu_ms(state: str) -> float:
    """CPU time (user + system, ms) the daemon of `state` and every process under it have used."""
    with open(os.path.join(state, "daemon.json"), encoding="utf-8") as info:
        root = int(json.load(info)["pid"])
    children: dict[int, list[int]] = {}
    used: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
        used[int(name)] = int(fields[11]) + int(fields[12])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += used.get(pid, 0)
        todo += children.get(pid, [])
    return total * 1000 / os.sysconf("SC_CLK_TCK")


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve() -> str:
    handler = functools.partial(QuietHandler, directory=HERE)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/fixtures/warm.html"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="the other checkout (with its own .venv)")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    url = serve()
    new = Checkout(os.path.dirname(HERE), "new", args.trace)
    base = Checkout(args.base, "base", args.trace)
    print(f"load at start {os.getloadavg()[0]:.2f}")
    ratios = []
    for turn in range(args.runs):
        pair = (new, base) if turn % 2 == 0 else (base, new)
        times = {c.label: c.cold(url) for c in pair}
        ratios.append(times["new"] / times["base"])
        print(f"run {turn + 1}: new {times['new']:.0f} ms, base {times['base']:.0f} ms", flush=True)
    print(f"load at end {os.getloadavg()[0]:.2f}")
    for c in (new, base):
        cpu = statistics.median(c.cpu)
        print(f"{c.label}: median {statistics.median(c.samples):.0f} ms, CPU time {cpu:.0f} ms (median)")
    print(f"new / base: median of ratios {statistics.median(ratios):.2f}")
    for c in (new, base):
        for label, ats in c.steps.items():
            print(f"  {c.label} {label}: +{statistics.median(ats):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
