"""Where refbrowse's time goes: the parts under its commands, measured on their own.

- the CLI: an interpreter that does nothing against a warm `browse url`, in
  alternation; the difference is the CLI's imports, the request and the daemon;
- a cold start's steps: importing Playwright and aiohttp, starting Playwright's
  node driver, launching Chromium, a context and a page (`pwprobe.py cold`);
- single Playwright calls on the warm page (`pwprobe.py warm`): each is a round
  trip Python → node driver → Chromium, the bricks every daemon command is made of.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
from typing import Any

from harness.context import OURS, Context
from harness.refbrowse_tool import REPO
from harness.setup import CHROMIUM
from harness.stats import alternate, figure, timed

PYTHON = os.path.join(REPO, ".venv", "bin", "python")
PROBE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pwprobe.py")
COLD_RUNS = 3


def probe(*args: str) -> dict[str, float]:
    done = subprocess.run([PYTHON, PROBE, *args], capture_output=True, text=True, timeout=120, check=True)
    found: dict[str, float] = json.loads(done.stdout)
    return found


def cli_start(ctx: Context) -> dict[str, Any]:
    tool = ctx.tools[OURS]
    tool.start()
    steps = {
        "python -c pass": lambda: subprocess.run([PYTHON, "-c", "pass"], check=True),
        "browse url": tool.url,
    }
    samples = alternate(list(steps), ctx.runs_warm, lambda name, _: timed(steps[name])[0])
    return figure(samples, "browse url")


def run(ctx: Context) -> dict[str, Any]:
    colds = [probe("cold", CHROMIUM) for _ in range(COLD_RUNS)]
    cold = {step: statistics.median(run[step] for run in colds) for step in colds[0]}
    return {
        "cli": cli_start(ctx),
        "cold start steps (median ms)": cold,
        "playwright calls on the warm page (median ms)": probe(
            "warm", CHROMIUM, ctx.url("/fixtures/warm.html")
        ),
    }
