"""`snapshot -i` on big real documents, refbrowse and agent-browser side by side.

Run: .venv/bin/python bench/big_snapshots.py [--runs N] [--base DIR]
Needs Debian's Python docs (`apt-get install -y python3.11-doc`) and the peers
in bench/peers/ (`bench/run.py` installs them). On os.html and stdtypes.html
(16,000-17,000 elements), each tool opens the page, then prints `snapshot -i`
three times: right after opening it, again on the unchanged page, and with a
budget (refbrowse `--max-tokens 500`; agent-browser has none, so its plain
snapshot again). The opening is timed too, alone and with the first snapshot:
what an agent waits for before it has the page's refs; and the first snapshot of
the page opened again after a pause as long as a model's turn. Tools alternate from run
to run; medians in milliseconds, and refbrowse ÷ agent-browser.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness.agentbrowser_tool import binary, peer_env
from harness.setup import CHROMIUM, DOCS_ROOT, ensure_docs

from refbrowse.daemon.core.browser.chromium import launch_flags

PAGES = ("library/os.html", "library/stdtypes.html")
STEPS = ("first", "again", "budget")
# Reported too: the opening itself, and the opening with the first snapshot (an agent waits for both).
OPENING = ("open", "open + first")
# And the first snapshot as an agent meets it: the page opened again, then a model's turn (a few
# seconds of thinking between two commands; 2 s here) before `snapshot -i`.
TURN_S = 2.0
AFTER_TURN = "first after a 2 s turn"

Run = Callable[..., str]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def serve_in_thread(root: str) -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def cli(program: str, env: dict[str, str]) -> Run:
    def run(*args: str) -> str:
        command = [program, *args]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode:
            sys.exit(f"{program} {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    return run


class Tool:
    def __init__(self, run: Run, opens: str, budget: tuple[str, ...], closes: str) -> None:
        self.run, self.opens, self.budget, self.closes = run, opens, budget, closes


def tools(work: str, base: str | None) -> dict[str, Tool]:
    root = Path(__file__).parent.parent
    env = peer_env(
        work, CHROMIUM, launch_flags()
    )  # the same Chromium flags as refbrowse's, as in bench/run.py
    found = {
        "refbrowse": _ours(str(root), work, "ours"),
        "agent-browser": Tool(cli(binary(str(root / "bench" / "peers")), env), "open", (), "close"),
    }
    if base:
        found["refbrowse (base)"] = _ours(base, work, "base")
    return found


def _ours(checkout: str, work: str, name: str) -> Tool:
    env = {**os.environ, "BROWSE_STATE_DIR": os.path.join(work, name, ".refbrowse")}
    run = cli(os.path.join(checkout, ".venv", "bin", "browse"), env)
    return Tool(run, "goto", ("--max-tokens", "500"), "stop")


def measure(tool: Tool, url: str) -> dict[str, float]:
    began = time.perf_counter()
    tool.run(tool.opens, url)
    taken = {"open": (time.perf_counter() - began) * 1000}
    for step in STEPS:
        began = time.perf_counter()
        tool.run("snapshot", "-i", *(tool.budget if step == "budget" else ()))
        taken[step] = (time.perf_counter() - began) * 1000
    taken["open + first"] = taken["open"] + taken["first"]
    tool.run(tool.opens, url)
    time.sleep(TURN_S)
    began = time.perf_counter()
    tool.run("snapshot", "-i")
    taken[AFTER_TURN] = (time.perf_counter() - began) * 1000
    return taken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--base", help="another checkout of refbrowse (with its .venv), measured alongside")
    args = parser.parse_args()
    if not ensure_docs():
        return 1
    origin = serve_in_thread(DOCS_ROOT)
    with tempfile.TemporaryDirectory() as work:
        found = tools(work, args.base)
        samples: dict[tuple[str, str, str], list[float]] = {}
        for turn in range(args.runs):
            names = list(found)
            names = names[turn % len(names) :] + names[: turn % len(names)]
            for page in PAGES:
                for name in names:
                    for step, ms in measure(found[name], f"{origin}/{page}").items():
                        samples.setdefault((page, name, step), []).append(ms)
        for tool in found.values():
            tool.run(tool.closes)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} runs; median ms (refbrowse ÷ agent-browser)")
    for page in PAGES:
        for step in (*STEPS, *OPENING, AFTER_TURN):
            peer = statistics.median(samples[(page, "agent-browser", step)])
            cells = []
            for name in found:
                ms = statistics.median(samples[(page, name, step)])
                ratio = f" ({ms / peer:.2f}×)" if name != "agent-browser" else ""
                cells.append(f"{name} {ms:,.0f}{ratio}")
            what = f"snapshot -i {step}" if step in (*STEPS, AFTER_TURN) else step
            print(f"{page} {what}: " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
