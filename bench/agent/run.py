"""The agent-task suite on its own: `.venv/bin/python bench/agent/run.py [--phases before,after]`.

Writes bench/results/agent.json and the suite's table into bench/RESULTS.md
(replacing the previous one there, leaving the other sections alone). `make
bench` runs the same suite as its `agent` section.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, BENCH)

from harness import setup  # noqa: E402

from agent import report  # noqa: E402
from agent.suite import PHASES  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", default=",".join(PHASES), help="of: " + ", ".join(PHASES))
    parser.add_argument("--tasks", default="", help="only the tasks whose name contains this")
    parser.add_argument("--out", default=BENCH, help="where results/agent.json and RESULTS.md go")
    args = parser.parse_args()
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    if unknown := [p for p in phases if p not in PHASES]:
        sys.exit(f"unknown phase {', '.join(unknown)}: choose among {', '.join(PHASES)}")
    setup.ensure_peers(os.path.join(BENCH, "peers"))
    with tempfile.TemporaryDirectory(prefix="refbrowse-agent-") as workdir:
        data = report.measure(workdir, phases, " ".join(sys.argv[1:]), args.tasks)
    report.save(args.out, data)
    failed = [n for n, runs in data["result"]["tasks"].items() for r in runs.values() if not r["passed"]]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
