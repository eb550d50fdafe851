"""Remote browsers and the proxy, each against a real server on 127.0.0.1.

- a second Chromium started with `--remote-debugging-port` (`BROWSE_CDP_URL`, `connect --cdp`);
- `playwright run-server`, from the pip package (`BROWSE_WS_ENDPOINT`);
- a small forward proxy that records what goes through it (`BROWSE_PROXY`).
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from refbrowse.daemon.core.chromium import find_chromium, launch_flags
from refbrowse.daemon.core.target import redact, scrub

SECRET = "sekrit-0451"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RemoteChromium:
    """A Chromium of its own, with remote debugging on a fixed port of 127.0.0.1."""

    def __init__(self, profile: Path) -> None:
        self.port = free_port()
        self.profile = profile
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        argv = [find_chromium(), "--headless=new", f"--remote-debugging-port={self.port}"]
        argv += ["--remote-debugging-address=127.0.0.1", f"--user-data-dir={self.profile}", *launch_flags()]
        self.process = subprocess.Popen(
            [*argv, "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(200):
            if self.answers():
                return
            time.sleep(0.05)
        raise AssertionError("the remote Chromium did not open its debugging port")

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/version", timeout=2) as reply:
                return "Browser" in json.loads(reply.read())
        except OSError:
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={SECRET}"


@pytest.fixture
def remote(tmp_path: Path) -> Iterator[RemoteChromium]:
    chromium = RemoteChromium(tmp_path / "remote-profile")
    chromium.start()
    yield chromium
    chromium.kill()


class RecordingProxy(BaseHTTPRequestHandler):
    """A forward proxy that answers every request itself and remembers its request line."""

    seen: list[str] = []  # noqa: RUF012 - one list shared by the handler's threads

    def do_GET(self) -> None:
        self.seen.append(f"{self.command} {self.path}")
        body = f"<title>Proxied</title><p>via the proxy: {self.path}</p>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), RecordingProxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    RecordingProxy.seen.clear()
    yield server
    server.shutdown()


def test_endpoints_are_redacted_wherever_they_are_shown() -> None:
    assert redact("wss://u:pw@chrome.browserless.io/chromium?token=abc&stealth=1") == (
        "wss://u:***@chrome.browserless.io/chromium?token=***&stealth=1"
    )
    assert (
        redact("ws://127.0.0.1:9/?launch-options=%7B%7D&apiKey=k")
        == "ws://127.0.0.1:9/?launch-options=%7B%7D&apiKey=***"
    )
    assert redact("ws://grid:4444/session/4f2a/se/cdp") == "ws://grid:4444/session/4f2a/se/cdp"
    said = scrub("connect ECONNREFUSED at ws://me:pw@h:1/x?token=abc&b=2")
    assert said == "connect ECONNREFUSED at ws://me:***@h:1/x?token=***&b=2"
