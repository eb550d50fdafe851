"""Where a warm action's time goes, phase by phase, from the daemon's own trace.

Run: .venv/bin/python bench/action_phases.py [--runs N] [--checkout DIR]

Starts the checkout's daemon with `BROWSE_TRACE=1` in a temporary workspace,
opens bench/fixtures/warm.html, then posts click, fill, select and check
(uncheck between checks) straight to the daemon's socket, as the CLI would,
so no process start is in the figures. After each request it reads the
`trace:` lines the daemon wrote for it and prints, per action, the median of
each phase and of the whole request as the client saw it (ms).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from daemon_ab import ACTIONS, Daemon, serve_fixtures  # noqa: E402
from harness.tool import find_ref  # noqa: E402

_TIMED = re.compile(r"trace: (.+?) ([0-9.]+) ms$")  # a step's duration, or `at LABEL`: time since arrival


def _new_lines(log: str, seen: int) -> tuple[list[str], int]:
    with open(log, encoding="utf-8", errors="replace") as f:
        f.seek(seen)
        text = f.read()
        return text.splitlines(), f.tell()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--checkout", default=os.path.dirname(HERE))
    args = parser.parse_args()
    os.environ["BROWSE_TRACE"] = "1"
    daemon = Daemon(args.checkout, "traced")
    log = os.path.join(daemon.state, "daemon.log")
    load = os.getloadavg()[0]
    phases: dict[str, dict[str, list[float]]] = {a[0]: {} for a in ACTIONS}
    try:
        shown = daemon.cli("goto", serve_fixtures())
        refs = {name: "@" + find_ref(shown, role, name) for _, role, name, _ in ACTIONS}
        seen = os.path.getsize(log)
        for turn in range(args.runs + 2):
            for command, _, name, make in ACTIONS:
                took = daemon.post(command, make(refs[name], turn)) * 1000
                time.sleep(0.05)  # the log line of the last phase is written before the answer; let it land
                lines, seen = _new_lines(log, seen)
                if turn < 2:
                    continue  # the first rounds warm the page's scripts up
                by = phases[command]
                by.setdefault("(request, client side)", []).append(took)
                for line in lines:
                    found = _TIMED.search(line)
                    if found:
                        by.setdefault(found.group(1), []).append(float(found.group(2)))
    finally:
        subprocess.run([daemon.python, daemon.browse, "stop"], env=daemon.env, capture_output=True)
    end = os.getloadavg()[0]
    print(f"load average {load:.2f} -> {end:.2f}; {args.runs} runs; medians in ms (n = times seen)")
    for command, by in phases.items():
        print(f"\n{command}")
        for label, values in by.items():
            print(f"  {label:<28} {statistics.median(values):7.1f}  (n={len(values)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
