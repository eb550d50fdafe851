"""Shared parts of the reliability suite: a local site, a workspace driven through `browse`, memory peaks.

Everything runs against a real Chromium and real pages on 127.0.0.1, as the
tests do; nothing is mocked. Each section returns rows of figures that
`run.py` writes to RELIABILITY.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from refbrowse.daemon.reaper import descendants

BROWSE = str(Path(sys.executable).parent / "browse")
Route = Callable[[BaseHTTPRequestHandler], None]


class Handler(BaseHTTPRequestHandler):
    routes: dict[str, Route] = {}  # noqa: RUF012 - one table for the one server of a run
    hits: list[str] = []  # noqa: RUF012

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _serve(self) -> None:
        path = self.path.split("?")[0]
        Handler.hits.append(self.path)
        route = self.routes.get(path)
        if route is None:
            self.send_error(404)
        else:
            route(self)

    do_GET = _serve
    do_POST = _serve


def reply(h: BaseHTTPRequestHandler, body: str, headers: dict[str, str] | None = None) -> None:
    data = body.encode()
    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Content-Length", str(len(data)))
    for key, value in (headers or {}).items():
        h.send_header(key, value)
    h.end_headers()
    h.wfile.write(data)


class Site:
    def __init__(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def page(self, path: str, html: str) -> str:
        Handler.routes[path] = lambda h: reply(h, html)
        return self.url(path)

    def route(self, path: str, fn: Route) -> str:
        Handler.routes[path] = fn
        return self.url(path)


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float


class Workspace:
    """A throwaway directory with its own daemon, driven through the `browse` command."""

    def __init__(self, name: str) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=f"refbrowse-rel-{name}-"))
        (self.root / ".git").mkdir()
        self.state_dir = self.root / ".refbrowse"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSE_")}

    def run(self, *args: str, timeout: float = 90, stdin: str | None = None, **env: str) -> Run:
        start = time.monotonic()
        try:
            proc = subprocess.run(
                [BROWSE, *args],
                cwd=self.root,
                env={**self.env, **env},
                input=stdin,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return Run(-1, "", f"hung past {timeout} s", time.monotonic() - start)
        return Run(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start)

    def start(self, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [BROWSE, *args],
            cwd=self.root,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def daemon_pid(self) -> int | None:
        from refbrowse.protocol import read_daemon_file

        info = read_daemon_file(str(self.state_dir))
        return int(str(info["pid"])) if info else None

    def close(self) -> None:
        self.run("stop", timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)


# processes


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def roles(daemon: int) -> dict[str, list[int]]:
    """The daemon, Playwright's driver and Chromium's processes under a daemon."""
    out: dict[str, list[int]] = {"daemon": [daemon], "driver": [], "chromium": []}
    for pid in descendants(daemon):
        line = cmdline(pid)
        if "node" in line.split(" ")[0] or "/node " in line:
            out["driver"].append(pid)
        elif "chrom" in line:
            out["chromium"].append(pid)
    return out


def browser_main(daemon: int) -> int | None:
    for pid in roles(daemon)["chromium"]:
        if "--type=" not in cmdline(pid):
            return pid
    return None


@dataclass
class Peak:
    mb: dict[str, float] = field(default_factory=lambda: {"daemon": 0.0, "driver": 0.0, "chromium": 0.0})

    def __str__(self) -> str:
        return " / ".join(f"{self.mb[k]:.0f}" for k in ("daemon", "driver", "chromium"))


@contextmanager
def peak_memory(daemon: int | None) -> Iterator[Peak]:
    """Sample RSS every 0.2 s (Chromium summed over its processes) and keep each role's peak."""
    peak = Peak()
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set() and daemon:
            for role, pids in roles(daemon).items():
                peak.mb[role] = max(peak.mb[role], sum(rss_mb(p) for p in pids))
            stop.wait(0.2)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield peak
    finally:
        stop.set()
        thread.join()


def wait_until(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False
