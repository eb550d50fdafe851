"""The floor under a cold start: each step any Playwright-driven tool pays, timed alone.

Run: .venv/bin/python bench/cold_floor.py [--runs N]

In one process, with Playwright already imported, each run times: the node
driver's start up to Playwright's handshake (with the daemon's compile cache), Chromium's launch (with the
daemon's flags), a new context, its first page (a new renderer), `goto` of
bench/fixtures/warm.html (served here) and the page's first ai snapshot.
Their sum is what a cold start costs before anything of refbrowse's own
(interpreter starts, imports, the daemon's socket, settling, the report).
Prints the median of each step and of the sum, with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import os
import statistics
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from playwright.async_api import async_playwright

from refbrowse.daemon.core.browser import driver
from refbrowse.daemon.core.browser.chromium import find_chromium, launch_flags

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = ("driver", "launch", "context", "first page", "goto", "ai snapshot")


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve() -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=HERE))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/fixtures/warm.html"


async def one_run(url: str, chromium: str) -> list[float]:
    marks = [time.perf_counter()]
    manager = async_playwright()
    playwright = await manager.start()
    marks.append(time.perf_counter())
    browser = await playwright.chromium.launch(executable_path=chromium, args=launch_flags())
    marks.append(time.perf_counter())
    context = await browser.new_context()
    marks.append(time.perf_counter())
    page = await context.new_page()
    marks.append(time.perf_counter())
    await page.goto(url)
    marks.append(time.perf_counter())
    await page.aria_snapshot(mode="ai", boxes=True)
    marks.append(time.perf_counter())
    await browser.close()
    await playwright.stop()
    return [(b - a) * 1000 for a, b in itertools.pairwise(marks)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    driver.use_node_compile_cache()  # as the daemon starts its driver
    url, chromium = serve(), os.environ.get("BROWSE_CHROMIUM_PATH") or find_chromium()
    print(f"load at start {os.getloadavg()[0]:.2f}; {chromium}")
    runs = [asyncio.run(one_run(url, chromium)) for _ in range(args.runs)]
    print(f"load at end {os.getloadavg()[0]:.2f}; medians of {args.runs} runs (ms)")
    for index, step in enumerate(STEPS):
        print(f"  {step}: {statistics.median(run[index] for run in runs):.0f}")
    print(f"  sum: {statistics.median(sum(run) for run in runs):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
