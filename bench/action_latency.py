"""Warm `click` and `fill` latency through the `browse` CLI on a small local page.

Run: .venv/bin/python bench/action_latency.py [--runs N]
Prints the median wall time of each command, as an agent's shell sees it.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGE = b"""<!doctype html><title>Latency</title>
<label for=who>Name</label> <input id=who>
<button id=go onclick="document.getElementById('out').textContent = 'clicked ' + (++window.n)">Go</button>
<button id=still>Nothing</button>
<p id=out></p><script>window.n = 0</script>"""

BROWSE = str(Path(sys.executable).parent / "browse")


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *_: object) -> None:
        pass


def _timed(browse: str, cwd: str, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([browse, *args], cwd=cwd, check=True, capture_output=True)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--browse", default=BROWSE, help="the browse command to time (default: this venv's)")
    options = parser.parse_args()
    runs, browse = options.runs, options.browse
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as cwd:
        Path(cwd, ".git").mkdir()
        try:
            subprocess.run(
                [browse, "goto", f"http://127.0.0.1:{server.server_address[1]}/"], cwd=cwd, check=True
            )
            subprocess.run([browse, "snapshot", "-i"], cwd=cwd, check=True, capture_output=True)
            cases = {
                "click (changes the page)": ("click", "#go"),
                "click (changes nothing)": ("click", "#still"),
                "fill": ("fill", "#who", "Ann"),
            }
            for label, args in cases.items():
                times = [_timed(browse, cwd, *args) for _ in range(runs)]
                print(f"{label:28} median {statistics.median(times):6.1f} ms  (n={runs})")
        finally:
            subprocess.run([browse, "stop"], cwd=cwd, capture_output=True)
            server.shutdown()


if __name__ == "__main__":
    main()
