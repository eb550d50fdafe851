"""Hostile pages: each one is loaded in a live session, then the tab must come back.

Time to recover: from the hostile page being loaded to the first `goto` of a
calm page that succeeds (retried until then, 90 s at most). Meanwhile another
session's `url` must answer. Peak memory (RSS, MB) of the daemon, Playwright's
driver and Chromium (all its processes summed) is sampled every 0.2 s.
"""

from __future__ import annotations

import contextlib
import html
import json
import time
from http.server import BaseHTTPRequestHandler

from common import Handler, Site, Workspace, peak_memory, reply

GIB = 1024**3

ALERTS = "<script>setTimeout(() => { while (true) alert('again') }, 50)</script>"
BUSY = "<script>setTimeout(() => { while (true) {} }, 50)</script>"
CONSOLE = (
    "<script>setTimeout(() => { for (let i = 0; i < 200000; i++) console.log('flood ' + i) }, 50)</script>"
)
POPUPS = """<script>let n = 0; const t = setInterval(() => { window.open('about:blank');
  if (++n >= 300) clearInterval(t) }, 10)</script>"""
REDIRECT = "<script>setTimeout(() => { location.href = '/redirect?' + Math.random() }, 0)</script>"
TRAP = """<input id=i><script>addEventListener('beforeunload', e => { e.preventDefault();
  e.returnValue = 'stay' })</script>"""
AUTODOWNLOAD = "<a id=a href='/gigabyte' download>x</a><script>a.click()</script>"


def gigabyte(h: BaseHTTPRequestHandler) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "application/octet-stream")
    h.send_header("Content-Disposition", 'attachment; filename="gigabyte.bin"')
    h.send_header("Content-Length", str(GIB))
    h.end_headers()
    chunk = b"\0" * (1024 * 1024)
    try:
        for _ in range(1024):
            h.wfile.write(chunk)
    except OSError:
        pass  # the client stopped reading: a cancelled download


def huge_page() -> str:
    row = (
        "<div><h3>Item {i}</h3><p>Text {i} <a href='/i/{i}'>link {i}</a> "
        "<button>Buy {i}</button><span>a</span></p></div>"
    )
    return "<title>huge</title><main>" + "".join(row.format(i=i) for i in range(14_300)) + "</main>"


class Bench:
    def __init__(self) -> None:
        self.site = Site()
        self.ws = Workspace("hostile")
        self.ws.env["BROWSE_PORT"] = "0"  # the TCP listener too, so that pages have something to try
        self.calm = self.site.page("/calm", "<title>calm</title><p>calm</p>")
        self.rows: list[tuple[str, str, str, str]] = []

    def recover(self) -> tuple[float, bool]:
        start = time.monotonic()
        while time.monotonic() - start < 90:
            if (
                self.ws.run("goto", self.calm, timeout=60).code == 0
                and self.ws.run("url").out.strip() == self.calm
            ):
                return time.monotonic() - start, True
        return time.monotonic() - start, False

    def scenario(self, name: str, html: str, settle: float = 1.0, prepare: tuple[str, ...] = ()) -> None:
        url = self.site.page(f"/{name.replace(' ', '-')}", html)
        with peak_memory(self.ws.daemon_pid()) as peak:
            self.ws.run("goto", url, timeout=120)
            if prepare:
                self.ws.run(*prepare)
            time.sleep(settle)
            other = self.ws.run("--session", "other", "url", timeout=60)
            seconds, ok = self.recover()
        tabs = len(self.ws.run("--raw", "tabs").out.strip().splitlines())
        result = f"{seconds:.1f} s" if ok else f"NOT recovered in {seconds:.0f} s"
        other_text = f"{other.seconds:.1f} s" if other.code == 0 else f"failed ({other.err.strip()[:60]})"
        self.rows.append((name, result, f"other session: {other_text}; tabs after: {tabs}", str(peak)))


def run() -> list[tuple[str, str, str, str]]:
    bench = Bench()
    ws, site = bench.ws, bench.site
    try:
        ws.run("goto", bench.calm)
        bench.scenario("alert loop", ALERTS)
        bench.scenario("busy loop", BUSY)
        bench.scenario("200k console messages", CONSOLE, settle=3)
        bench.scenario("popup storm (300 window.open)", POPUPS, settle=5)
        site.route("/redirect", lambda h: reply(h, REDIRECT))
        bench.scenario("redirect loop", REDIRECT, settle=2)
        bench.scenario("beforeunload trap", TRAP, settle=0.5, prepare=("click", "#i"))
        _huge(bench)
        _downloads(bench)
        _reach_daemon(bench)
    finally:
        ws.close()
    return bench.rows


def _huge(bench: Bench) -> None:
    url = bench.site.page("/huge", huge_page())
    with peak_memory(bench.ws.daemon_pid()) as peak:
        loaded = bench.ws.run("--timeout", "120000", "goto", url, timeout=180)
        snap = bench.ws.run("snapshot", "-i", "--max-tokens", "2000", timeout=120)
        text = bench.ws.run("text", timeout=120)
    detail = (
        f"goto {loaded.seconds:.1f} s; `snapshot -i --max-tokens 2000` {snap.seconds:.1f} s "
        f"({len(snap.out):,} chars, exit {snap.code}); `text` {len(text.out):,} chars"
    )
    seconds, ok = bench.recover()
    bench.rows.append(("100k-node DOM", f"{seconds:.1f} s" if ok else "NOT recovered", detail, str(peak)))


def _downloads(bench: Bench) -> None:
    url = bench.site.route("/gigabyte", gigabyte)
    target = bench.ws.root / "gigabyte.bin"
    with peak_memory(bench.ws.daemon_pid()) as peak:
        got = bench.ws.run("download", url, str(target), "--max-bytes", str(2 * GIB), timeout=600)
    size = target.stat().st_size if target.exists() else 0
    target.unlink(missing_ok=True)
    detail = f"`download URL` exit {got.code} in {got.seconds:.1f} s, {size:,} bytes on disk"
    bench.rows.append(("1 GB download (asked for)", "n/a", detail, str(peak)))
    capped = bench.ws.run("download", url, str(target), timeout=120)
    bench.rows.append(
        (
            "1 GB download past the default cap",
            "n/a",
            f"exit {capped.code}: {capped.err.strip().splitlines()[0][:90]}; kept: {target.exists()}",
            "",
        )
    )
    tmp = bench.ws.root / "tmp"
    tmp.mkdir(exist_ok=True)
    auto = bench.site.page("/autodownload", AUTODOWNLOAD)
    with peak_memory(bench.ws.daemon_pid()) as peak:
        bench.ws.run("goto", auto)
        time.sleep(5)
    written = _artifacts_bytes()
    bench.rows.append(
        (
            "1 GB download a page starts",
            "n/a",
            f"cancelled; Playwright artifact files on disk after 5 s: {written:,} bytes",
            str(peak),
        )
    )


def _artifacts_bytes() -> int:
    import glob
    import os
    import tempfile

    total = 0
    for folder in glob.glob(os.path.join(tempfile.gettempdir(), "playwright-artifacts-*")):
        for name in os.listdir(folder):
            with contextlib.suppress(OSError):
                total += os.path.getsize(os.path.join(folder, name))
    return total


def _reach_daemon(bench: Bench) -> None:
    from refbrowse.protocol import daemon_address, read_daemon_file

    info = read_daemon_file(str(bench.ws.state_dir)) or {}
    try:
        _, port, token = daemon_address(info)
    except (KeyError, ValueError):
        port = 0
    if not port:
        bench.rows.append(
            ("page-side requests to the daemon", "n/a", "no TCP address: pages cannot reach it", "")
        )
        return
    pwned = bench.site.url("/pwned")
    command = json.dumps({"command": "goto", "args": [pwned], "flags": {}})
    target = f"http://127.0.0.1:{port}/command"
    attempts = [
        f"fetch('{target}', {{method: 'POST', body: '{command}'}})",
        f"fetch('{target}', {{method: 'POST', body: '{command}', "
        f"headers: {{Authorization: 'Bearer {token}'}}}})",
        f"fetch('{target}', {{method: 'POST', mode: 'no-cors', body: '{command}'}})",
        f"(() => {{ const x = new XMLHttpRequest(); x.open('POST', '{target}'); x.send('{command}') }})()",
        f"(() => {{ const x = new XMLHttpRequest(); x.open('POST', '{target}'); "
        f"x.setRequestHeader('Authorization', 'Bearer {token}'); x.send('{command}') }})()",
    ]
    script = ";".join(f"try {{ {a} }} catch (e) {{}}" for a in attempts)
    name = html.escape('{"command": "goto", "x": "', quote=True)
    value = html.escape(f'", "args": ["{pwned}"]}}', quote=True)
    form = (
        f"<form id=f method=post action='{target}' enctype='text/plain'>"
        f'<input name="{name}" value="{value}"></form><script>{script}; f.submit()</script>'
    )
    before = sum("/pwned" in hit for hit in Handler.hits)
    bench.ws.run("goto", bench.site.page("/reach", form))
    time.sleep(3)
    through = sum("/pwned" in hit for hit in Handler.hits) - before
    bench.rows.append(
        (
            "page-side fetch/XHR/form POST to the daemon",
            "n/a",
            f"{len(attempts) + 1} attempts (with and without the token): {through} got through",
            "",
        )
    )
