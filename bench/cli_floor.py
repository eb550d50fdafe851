"""The CLI's start against the interpreter's own floor, in alternation.

Run: .venv/bin/python bench/cli_floor.py [--runs N]

Times, as a shell sees them, the venv's interpreter doing nothing (`-c pass`,
then with `-S`, `-I`, `-I -S`), `browse --version` (the CLI's imports, no
daemon) and `browse url` against a running daemon (started here on
about:blank in a temporary workspace), each in turn within every run. Prints
the median and the minimum of each (ms) with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.path.dirname(sys.executable)
PYTHON = os.path.join(BIN, "python")
BROWSE = os.path.join(BIN, "browse")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    env = {**os.environ, "BROWSE_STATE_DIR": tempfile.mkdtemp(prefix="refbrowse-floor-")}
    env.setdefault("BROWSE_CHROMIUM_PATH", "/usr/bin/chromium")
    cases = {
        "python -c pass": [PYTHON, "-c", "pass"],
        "python -S -c pass": [PYTHON, "-S", "-c", "pass"],
        "python -I -c pass": [PYTHON, "-I", "-c", "pass"],
        "python -I -S -c pass": [PYTHON, "-I", "-S", "-c", "pass"],
        "browse --version": [BROWSE, "--version"],
        "browse url": [BROWSE, "url"],
    }
    subprocess.run([BROWSE, "goto", "about:blank"], env=env, capture_output=True, check=True)
    times: dict[str, list[float]] = {name: [] for name in cases}
    load = os.getloadavg()[0]
    try:
        for _ in range(args.runs):
            for name, argv in cases.items():
                started = time.perf_counter()
                subprocess.run(
                    argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
                )
                times[name].append((time.perf_counter() - started) * 1000)
    finally:
        subprocess.run([BROWSE, "stop"], env=env, capture_output=True)
    print(f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}, {args.runs} runs each (ms)")
    print("| command | median | min |\n| --- | ---: | ---: |")
    for name, values in times.items():
        print(f"| `{name}` | {statistics.median(values):.1f} | {min(values):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
