"""What session settings cost: an active route per request, and the first action after a switch.

Run: .venv/bin/python bench/settings_cost.py [--runs N] [--requests N]

1. Per request: the page fetches a local URL N times in a row and times it itself
   (`performance.now()`), with no route, with a route that matches other URLs (every request
   still goes through the route machinery), and with a route that answers the request.
2. The first action after a switch: the wall time of `browse click` (as an agent's shell sees
   it) right after `device` or `timezone` changed, against a click with nothing switched.
Prints medians; one line of it goes to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGE = b"""<!doctype html><title>Cost</title>
<button id=go onclick="out.textContent = 'clicked ' + (++window.n)">Go</button><p id=out></p>
<script>window.n = 0;
async function burst(count) {
  const t = performance.now();
  for (let i = 0; i < count; i++) await (await fetch('/api/item?' + i)).text();
  return (performance.now() - t) / count;
}</script>"""

BROWSE = str(Path(sys.executable).parent / "browse")


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGE if self.path == "/" else b'{"ok": true}'
        self.send_response(200)
        self.send_header("Content-Type", "text/html" if self.path == "/" else "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


class Browse:
    def __init__(self, browse: str, cwd: str) -> None:
        self.browse, self.cwd = browse, cwd

    def __call__(self, *args: str) -> str:
        done = subprocess.run([self.browse, *args], cwd=self.cwd, check=True, capture_output=True, text=True)
        return done.stdout

    def timed(self, *args: str) -> float:
        start = time.perf_counter()
        self(*args)
        return (time.perf_counter() - start) * 1000


def per_request(run: Browse, requests: int, runs: int) -> dict[str, float]:
    setups = {
        "no route": [],
        "a route for other URLs": [["route", "**/never/*", "--abort"]],
        "a route that answers": [["route", "**/api/*", "--body", '{"ok": true}']],
    }
    found: dict[str, list[float]] = {name: [] for name in setups}
    for _ in range(runs):
        for name, steps in setups.items():  # alternate, so load drifts hit every case alike
            for step in steps:
                run(*step)
            found[name].append(float(run("--raw", "js", f"await burst({requests})")))
            if steps:
                run("unroute")
    return {name: statistics.median(times) for name, times in found.items()}


def first_action(run: Browse, runs: int) -> dict[str, float]:
    switches = {
        "nothing switched": [],
        "after `device`": [["device", "iPhone 13"], ["device", "off"]],
        "after `timezone`": [["timezone", "Asia/Tokyo"], ["timezone", "off"]],
    }
    found: dict[str, list[float]] = {name: [] for name in switches}
    for i in range(runs):
        for name, steps in switches.items():
            if steps:
                run(*steps[i % 2])  # on and off in turn: each run is a real switch
            found[name].append(run.timed("click", "#go"))
    return {name: statistics.median(times) for name, times in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--browse", default=BROWSE)
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, ".git"))
        run = Browse(options.browse, root)
        try:
            run("goto", url)
            costs = per_request(run, options.requests, options.runs)
            firsts = first_action(run, options.runs)
        finally:
            subprocess.run([options.browse, "stop"], cwd=root, capture_output=True)
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, {platform.platform()}"
    )
    print(f"load average now: {os.getloadavg()[0]:.2f}")
    for name, ms in costs.items():
        print(f"per request, {name}: {ms:.2f} ms (median of {options.runs} bursts of {options.requests})")
    for name, ms in firsts.items():
        print(f"`click` {name}: {ms:.0f} ms (median of {options.runs})")


if __name__ == "__main__":
    main()
