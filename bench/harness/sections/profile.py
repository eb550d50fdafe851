"""Where refbrowse's time goes: the parts under its commands, measured on their own.

- the CLI: an interpreter that does nothing against a warm `browse url`, in
  alternation; the difference is the CLI's imports, the request and the daemon;
- a cold start's steps: importing Playwright and aiohttp, starting Playwright's
  node driver, launching Chromium, a context and a page (`pwprobe.py cold`);
- the daemon's side of warm commands: the same requests the CLI sends, posted
  straight to the daemon over HTTP from this process (no CLI process start);
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
from harness.refbrowse_tool import REPO, Refbrowse
from harness.setup import CHROMIUM
from harness.stats import alternate, figure, timed
from harness.tool import find_ref

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


def daemon_side(ctx: Context) -> dict[str, float]:
    """Median ms of each warm command as the daemon serves it, without the CLI's process start."""
    tool = ctx.tools[OURS]
    assert isinstance(tool, Refbrowse)
    tool.start()
    tool.goto(ctx.url("/fixtures/warm.html"))
    seen = tool.snapshot(True)
    button, box = find_ref(seen, "button", "Add one"), find_ref(seen, "textbox", "Name")
    with open(os.path.join(tool.state, "daemon.json")) as f:
        info = json.load(f)
    requests = {
        "url": ("url", [], {}),
        "text": ("text", [], {}),
        "snapshot -i": ("snapshot", [], {"-i": True}),
        "click @ref": ("click", ["@" + button], {}),
        "fill @ref": ("fill", ["@" + box, "x"], {}),
        "js": ("js", ["document.title"], {}),
    }
    return {
        label: statistics.median(post(info, *request) for _ in range(ctx.runs)) * 1000
        for label, request in requests.items()
    }


def post(info: dict[str, Any], command: str, args: list[str], flags: dict[str, Any]) -> float:
    """One command sent the way the CLI sends it (its own client, over the daemon's socket)."""
    from refbrowse.cli.client import request

    body = json.dumps({"command": command, "args": args, "flags": flags, "raw": False, "json": False})
    seconds, _ = timed(lambda: request(info, "POST", "/command", body.encode(), timeout=60))
    return seconds


def run(ctx: Context) -> dict[str, Any]:
    colds = [probe("cold", CHROMIUM) for _ in range(COLD_RUNS)]
    cold = {step: statistics.median(run[step] for run in colds) for step in colds[0]}
    return {
        "cli": cli_start(ctx),
        "daemon side of warm commands (median ms)": daemon_side(ctx),
        "cold start steps (median ms)": cold,
        "playwright calls on the warm page (median ms)": probe(
            "warm", CHROMIUM, ctx.url("/fixtures/warm.html")
        ),
    }
