"""Warm actions as two daemons serve them, in alternation: this checkout against another one.

Run: .venv/bin/python bench/daemon_ab.py --base /path/to/other/checkout [--runs N] [--url URL]

Each checkout runs its own daemon (its own venv, a temporary workspace) on the
same page; the requests the CLI would send are posted straight to each
daemon's socket, A then B, then B then A, ..., so no process start is in the
figures and drift on a shared machine hits both alike. Prints, per action,
the median ms of each and the median of the run-by-run ratios, with the load
average at the start and the end. The page is bench/fixtures/warm.html,
served here unless `--url` gives another page with the same elements.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from harness.tool import find_ref  # noqa: E402

from refbrowse.cli.client import request  # noqa: E402

ACTIONS = (
    ("click", "button", "Add one", lambda ref, turn: [ref]),
    ("fill", "textbox", "Name", lambda ref, turn: [ref, f"run {turn}"]),
    ("select", "combobox", "Size", lambda ref, turn: [ref, ("Small", "Large")[turn % 2]]),
    ("check", "checkbox", "Gift", lambda ref, turn: [ref]),
    ("uncheck", "checkbox", "Gift", lambda ref, turn: [ref]),
)


class Daemon:
    def __init__(self, checkout: str, label: str) -> None:
        self.label = label
        self.browse = os.path.join(checkout, ".venv", "bin", "browse")
        self.python = os.path.join(checkout, ".venv", "bin", "python")
        self.state = tempfile.mkdtemp(prefix=f"refbrowse-ab-{label}-")
        self.env = {**os.environ, "BROWSE_STATE_DIR": self.state}
        self.env.pop("BROWSE_SESSION", None)
        self.env.setdefault("BROWSE_CHROMIUM_PATH", "/usr/bin/chromium")

    def cli(self, *args: str) -> str:
        done = subprocess.run(
            [self.python, self.browse, *args], env=self.env, capture_output=True, text=True, check=True
        )
        return done.stdout

    def info(self) -> dict[str, Any]:
        with open(os.path.join(self.state, "daemon.json")) as f:
            found: dict[str, Any] = json.load(f)
        return found

    def post(self, command: str, args: list[str]) -> float:
        body = json.dumps({"command": command, "args": args, "flags": {}, "raw": False, "json": False})
        started = time.perf_counter()
        request(self.info(), "POST", "/command", body.encode(), timeout=60)
        return time.perf_counter() - started


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_: object) -> None:
        pass


def serve_fixtures() -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=HERE))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/fixtures/warm.html"


def measure(daemons: list[Daemon], url: str, runs: int) -> dict[str, dict[str, list[float]]]:
    refs = {}
    for daemon in daemons:
        shown = daemon.cli("goto", url)
        refs[daemon.label] = {name: "@" + find_ref(shown, role, name) for _, role, name, _ in ACTIONS}
    times: dict[str, dict[str, list[float]]] = {a[0]: {d.label: [] for d in daemons} for a in ACTIONS}
    for turn in range(runs):
        order = daemons if turn % 2 == 0 else daemons[::-1]
        for command, _, name, args in ACTIONS:
            for daemon in order:
                seconds = daemon.post(command, args(refs[daemon.label][name], turn))
                times[command][daemon.label].append(seconds)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the other checkout (with its .venv)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--url", help="a page with the warm page's elements (default: served here)")
    args = parser.parse_args()
    daemons = [Daemon(os.path.dirname(HERE), "this"), Daemon(args.base, "base")]
    load = os.getloadavg()[0]
    try:
        times = measure(daemons, args.url or serve_fixtures(), args.runs)
    finally:
        for daemon in daemons:
            subprocess.run([daemon.python, daemon.browse, "stop"], env=daemon.env, capture_output=True)
    print(f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}, {args.runs} runs each, daemon side (ms)")
    print("| action | this | base | this ÷ base (median of pairs) |")
    print("| --- | ---: | ---: | ---: |")
    for command, by in times.items():
        ratios = [a / b for a, b in zip(by["this"], by["base"], strict=True)]
        this, base = statistics.median(by["this"]) * 1000, statistics.median(by["base"]) * 1000
        print(f"| {command} | {this:.1f} | {base:.1f} | {statistics.median(ratios):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
