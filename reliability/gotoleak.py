"""Does the daemon's memory plateau over thousands of `goto`s of one long-lived tab?

Every `goto` makes Playwright create a Request and a Response object (in the
driver and in the daemon's Python client) for each of the page's requests.
Playwright's driver disposes the oldest objects of a kind past a cap per kind
(10,000 Request, 10,000 Response, ...) and the client drops the ones it is told
are disposed, so the daemon should grow until the caps are reached and then
stay flat. This probe drives one tab through `--gotos` navigations of a page
making `--images` + 4 requests and prints the RSS of the daemon and the
driver every `--every` gotos, and the daemon's census of live Playwright
objects (`BROWSE_MEMCENSUS=1`: `Request 9600/9500` is 9,600 alive, 9,500 of them
still held by the connection), read from the next `memwatch:` line of daemon.log
(up to 30 s of waiting a sample; with `--tracemalloc`, also its traced Python
heap, slow: about 5 s a goto). The gotos run in
chains of `--every`; a chain stops at a goto that fails, and the count says so.
A tab the daemon reopens as stuck (a loaded machine) frees what its page held:
the sample says so, and the figures after it start over.

    .venv/bin/python reliability/gotoleak.py --images 60 --gotos 500 --every 50 [--routed] [--tracemalloc]

Not part of `make reliability` (it runs for many minutes); its figures are quoted
in RELIABILITY.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

from common import BaseHTTPRequestHandler, Site, Workspace, roles, rss_mb

ASSETS = ("a.css", "b.js", "c.png", "d.json")
PAGE = (
    "<title>g{n}</title><link rel=stylesheet href='/g/a.css?{n}'><script src='/g/b.js?{n}'></script>"
    "<h1>Page {n}</h1>{images}<script>fetch('/g/d.json?{n}')</script>"
)
IMAGE = "<img src='/g/c.png?{n}-{i}'>"
HEAP = re.compile(r"memwatch: traced heap ([0-9.]+) MB")
CENSUS = re.compile(r"memwatch: live playwright objects \(alive/held by the connection\) (.*)")
PYHEAP = re.compile(
    r"memwatch: python heap (\d+) objects tracked by the collector, (\d+) blocks allocated(?:, (.*))?"
)
CENSUS_WAIT_S = 40  # the daemon counts every 30 s


def _asset(h: BaseHTTPRequestHandler) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Content-Length", "2")
    h.send_header("Cache-Control", "no-store")
    h.end_headers()
    h.wfile.write(b"{}")


def _log(ws: Workspace) -> str:
    log = ws.state_dir / "daemon.log"
    return log.read_text(errors="replace") if log.exists() else ""


def _traced_heap(ws: Workspace) -> str:
    found = HEAP.findall(_log(ws))
    return f"{found[-1]} MB" if found else "-"


def _census(ws: Workspace) -> str:
    """The daemon's next census, counted after this sample's gotos (the daemon counts every 30 s)."""
    seen, deadline = len(CENSUS.findall(_log(ws))), time.monotonic() + CENSUS_WAIT_S
    while time.monotonic() < deadline:
        found = CENSUS.findall(_log(ws))
        if len(found) > seen:
            time.sleep(0.5)  # the heap's line follows the census
            heap = PYHEAP.findall(_log(ws))
            arenas = f", {heap[-1][2]}" if heap and heap[-1][2] else ""
            objects = f"{int(heap[-1][0]):,} objects, {int(heap[-1][1]):,} blocks{arenas} · " if heap else ""
            return objects + str(found[-1])
        time.sleep(1)
    return "-"


def _sample(ws: Workspace, daemon: int, done: int, started: float, watch: bool) -> None:
    census = _census(ws)
    mb = {role: sum(rss_mb(p) for p in pids) for role, pids in roles(daemon).items()}
    heap = f" · traced heap {_traced_heap(ws)}" if watch else ""
    # A tab the daemon found stuck is reopened, which frees what its page held: a drop, not a plateau.
    reopened = _log(ws).count("reopened at about:blank")
    heap += f" · tab reopened {reopened} times" if reopened else ""
    print(
        f"{done:6d} gotos · {time.monotonic() - started:6.0f} s · daemon {mb['daemon']:6.1f} MB"
        f" · driver {mb['driver']:6.1f} MB · chromium {mb['chromium']:6.0f} MB{heap}\n        {census}",
        flush=True,
    )


STEP = re.compile(r"step (\d+) of \d+")


def _gotos(ws: Workspace, site: Site, args: argparse.Namespace) -> None:
    """`--gotos` navigations in chains of `--every`; a chain stops at a failed step, the count says so."""
    daemon, started, done, failed = ws.daemon_pid() or 0, time.monotonic(), 0, 0
    _sample(ws, daemon, 0, started, args.tracemalloc)
    while done < args.gotos:
        steps = [["goto", site.url(f"/g/{n % 10}")] for n in range(args.every)]
        batch = ws.run("chain", stdin=json.dumps(steps), timeout=args.every * 30)
        stopped = STEP.search(batch.err) if batch.code != 0 else None
        done += int(stopped.group(1)) - 1 if stopped else args.every
        failed += batch.code != 0
        if ws.daemon_pid() != daemon:
            print("the daemon restarted: the figures below are of another one", flush=True)
            daemon = ws.daemon_pid() or 0
        _sample(ws, daemon, done, started, args.tracemalloc)
    print(f"{failed} gotos failed (each stopped its chain)", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gotos", type=int, default=3000)
    parser.add_argument("--every", type=int, default=250, help="gotos a sample")
    parser.add_argument("--images", type=int, default=16, help="images on the page (more: caps come sooner)")
    parser.add_argument("--tracemalloc", action="store_true", help="BROWSE_TRACEMALLOC=1 in the daemon")
    parser.add_argument(
        "--routed",
        action="store_true",
        help="BROWSE_ALLOWED_HOSTS=127.0.0.1: every request routed (a Route each)",
    )
    args = parser.parse_args(argv)
    site = Site()
    for n in range(10):
        images = "".join(IMAGE.format(n=n, i=i) for i in range(args.images))
        site.page(f"/g/{n}", PAGE.format(n=n, images=images))
    for name in ASSETS:
        site.route(f"/g/{name}", _asset)
    ws = Workspace("gotoleak")
    # Every command carries the daemon's settings: a CLI asking for other ones would restart it.
    ws.env["BROWSE_MEMCENSUS"] = "1"
    ws.env |= {"BROWSE_TRACEMALLOC": "1"} if args.tracemalloc else {}
    ws.env |= {"BROWSE_ALLOWED_HOSTS": "127.0.0.1"} if args.routed else {}
    print(f"{args.images + 4} requests a goto, one tab", flush=True)
    try:
        first = ws.run("goto", site.url("/g/0"))
        if first.code != 0:
            print(first.err, file=sys.stderr)
            return 1
        _gotos(ws, site, args)
    finally:
        ws.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
