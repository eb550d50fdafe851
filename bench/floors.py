"""What no change to refbrowse's own code can take below, against what agent-browser takes in all.

Run: .venv/bin/python bench/floors.py [--runs N]

Some of `make bench`'s targets ask refbrowse to be as fast as agent-browser on
figures where refbrowse keeps work that agent-browser does not do. This
measures those parts on their own, on this machine, in one run, beside
agent-browser's whole figure:

- the CLI: the venv's interpreter starting and doing nothing (`python -c
  pass`), and a warm `browse url` (the CLI's start and one round trip to the
  daemon), against agent-browser's `get url`;
- the frame after an input, which every refbrowse action waits for so that its
  report shows what the input did: in plain Playwright (no daemon), a click
  sent on the page's DevTools session, then a `requestAnimationFrame` callback
  awaited, less the same round trip without the wait;
- Playwright's snapshot of a document it has not read before (its own script
  is set up in each new document) and of one it has;
- agent-browser's `click` + `snapshot -i` and `open` + `snapshot -i`, the
  peer's side of the act-and-see and goto-with-refs targets.

Each kind of sample is taken in turn within every run. Prints medians (ms)
and, per target, the sum of the floors against the peer's figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from harness.agentbrowser_tool import AgentBrowser  # noqa: E402
from harness.tool import find_ref  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402
from run import start_server  # noqa: E402

from refbrowse.daemon.core.browser.chromium import launch_flags  # noqa: E402

BIN = os.path.dirname(sys.executable)
CHROMIUM = os.environ.get("BROWSE_CHROMIUM_PATH", "/usr/bin/chromium")
FRAME_JS = "() => new Promise(done => requestAnimationFrame(() => done(0)))"


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return _ms(started)


def cli_floors(runs: int, page: str, peer: AgentBrowser) -> dict[str, list[float]]:
    """The interpreter, a warm `browse url`, and agent-browser's figures, in turn within each run."""
    env = {**os.environ, "BROWSE_STATE_DIR": tempfile.mkdtemp(prefix="refbrowse-floors-")}
    env.setdefault("BROWSE_CHROMIUM_PATH", CHROMIUM)
    browse = os.path.join(BIN, "browse")
    subprocess.run([browse, "goto", page], env=env, capture_output=True, check=True)
    peer.start()
    peer.goto(page)
    seen = [peer.snapshot(True)]  # the latest snapshot: its refs are the ones agent-browser knows
    samples: dict[str, list[float]] = {}
    cases: dict[str, Callable[[], float]] = {
        "python -c pass": lambda: _timed([os.path.join(BIN, "python"), "-c", "pass"], env),
        "browse url (warm)": lambda: _timed([browse, "url"], env),
        "agent-browser get url": lambda: _timed([peer.executable, "get", "url"], peer.env),
        "agent-browser click + snapshot -i": lambda: _peer_pair(
            peer, ["click", peer.ref_arg(find_ref(seen[0], "button", "Add one"))], seen
        ),
        "agent-browser open + snapshot -i": lambda: _peer_pair(peer, ["open", page], seen),
    }
    try:
        for _ in range(runs):
            for name, case in cases.items():
                samples.setdefault(name, []).append(case())
    finally:
        subprocess.run([browse, "stop"], env=env, capture_output=True)
        peer.stop()
    return samples


def _peer_pair(peer: AgentBrowser, first: list[str], seen: list[str]) -> float:
    """`first`, then `snapshot -i` (kept in `seen`), as two commands; their time together."""
    took = _timed([peer.executable, *first], peer.env)
    started = time.perf_counter()
    done = subprocess.run([peer.executable, "snapshot", "-i"], env=peer.env, capture_output=True, text=True)
    took += _ms(started)
    seen[0] = done.stdout
    return took


async def page_floors(runs: int, page: str) -> dict[str, list[float]]:
    """The frame after an input, and Playwright's snapshot of a new document, in plain Playwright."""
    samples: dict[str, list[float]] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=launch_flags())
        tab = await browser.new_page()
        session = await tab.context.new_cdp_session(tab)
        for turn in range(runs):
            started = time.perf_counter()
            await tab.goto(f"{page}?turn={turn}")
            samples.setdefault("Playwright goto (load)", []).append(_ms(started))
            for name in ("first snapshot of a document", "snapshot again"):
                started = time.perf_counter()
                await tab.aria_snapshot(mode="ai")
                samples.setdefault(name, []).append(_ms(started))
            await _frame(tab, session, samples)
        await browser.close()
    return samples


async def _frame(tab: Any, session: Any, samples: dict[str, list[float]]) -> None:
    """A click on the page's text, then the next animation frame; and the same round trip alone."""
    point = {"x": 20, "y": 200, "button": "left", "clickCount": 1}
    started = time.perf_counter()
    await session.send("Input.dispatchMouseEvent", {"type": "mousePressed", **point})
    await session.send("Input.dispatchMouseEvent", {"type": "mouseReleased", **point})
    await tab.evaluate(FRAME_JS)
    with_frame = _ms(started)
    started = time.perf_counter()
    await session.send("Input.dispatchMouseEvent", {"type": "mousePressed", **point})
    await session.send("Input.dispatchMouseEvent", {"type": "mouseReleased", **point})
    await tab.evaluate("() => 0")
    samples.setdefault("frame after an input", []).append(with_frame - _ms(started))


def _median(samples: dict[str, list[float]], name: str) -> float:
    return statistics.median(samples[name])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    server, base = start_server(False)
    page = base + "/fixtures/warm.html"
    peer = AgentBrowser(os.path.join(HERE, "peers"), tempfile.mkdtemp(), CHROMIUM, launch_flags())
    load = os.getloadavg()[0]
    try:
        samples = cli_floors(args.runs, page, peer)
        samples.update(asyncio.run(page_floors(args.runs, page)))
    finally:
        server.kill()
    print(f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}; {args.runs} runs; medians (ms)\n")
    print("| part | median (ms) |\n| --- | ---: |")
    for name in samples:
        print(f"| {name} | {_median(samples, name):.1f} |")
    m = {name: _median(samples, name) for name in samples}
    rows = [
        (
            "act-and-see (CLI)",
            "browse url + frame after an input",
            m["browse url (warm)"] + m["frame after an input"],
            "agent-browser click + snapshot -i",
        ),
        ("CLI reads, ≤ 2.0×", "python -c pass, ÷ 2", m["python -c pass"] / 2, "agent-browser get url"),
        (
            "goto with refs (CLI)",
            "browse url + Playwright goto + first snapshot of a document",
            m["browse url (warm)"] + m["Playwright goto (load)"] + m["first snapshot of a document"],
            "agent-browser open + snapshot -i",
        ),
    ]
    print("\n| target | refbrowse's floor | floor (ms) | peer's whole figure (ms) | floor ÷ peer |")
    print("| --- | --- | ---: | ---: | ---: |")
    for target, parts, floor, peer_name in rows:
        ratio = floor / m[peer_name]
        print(f"| {target} | {parts} | {floor:.1f} | {m[peer_name]:.1f} ({peer_name}) | {ratio:.2f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
