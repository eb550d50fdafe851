"""Kills: SIGKILL the daemon, Playwright's driver or Chromium in the middle of a command, 5 times each.

After each kill the next command must work, and a login (a persistent cookie
set before the kill) must survive it. A killed driver or Chromium is restarted
by the daemon, which lives on (at most 3 restarts a minute: past that it ends
and the next command starts a fresh one); the command it cut says so. A round
whose next command fails ends with `browse restart`, so that rounds do not
inherit each other's failures.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from http.server import BaseHTTPRequestHandler

from common import Site, Workspace, browser_main, reply, roles

ROUNDS = 5


def login(h: BaseHTTPRequestHandler) -> None:
    reply(h, "<p>logged in</p>", {"Set-Cookie": "session=kept-login; Path=/; Max-Age=86400"})


def whoami(h: BaseHTTPRequestHandler) -> None:
    cookie = h.headers.get("Cookie", "")
    reply(h, f"<p>{'LOGGED-IN' if 'session=kept-login' in cookie else 'ANONYMOUS'}</p>")


def victim(ws: Workspace, kind: str) -> int | None:
    daemon = ws.daemon_pid()
    if daemon is None:
        return None
    if kind == "daemon":
        return daemon
    if kind == "driver":
        found = roles(daemon)["driver"]
        return found[0] if found else None
    return browser_main(daemon)


def run() -> list[tuple[str, str, str]]:
    site = Site()
    ws = Workspace("kills")
    site.route("/login", login)
    me = site.route("/whoami", whoami)
    rows = []
    try:
        ws.run("goto", site.url("/login"))
        time.sleep(3)  # the cookie save is debounced
        for kind in ("daemon", "chromium", "driver"):
            worked = kept = lived = said = 0
            times = []
            for _ in range(ROUNDS):
                ws.run("goto", me)
                busy = ws.start("js", "new Promise(r => setTimeout(() => r(1), 4000))")
                time.sleep(1)
                daemon, pid = ws.daemon_pid(), victim(ws, kind)
                if pid:
                    os.kill(pid, signal.SIGKILL)
                try:
                    _, cut = busy.communicate(timeout=20)  # the command that was cut
                except subprocess.TimeoutExpired:
                    busy.kill()
                    _, cut = busy.communicate()
                said += "has been restarted" in cut
                start = time.monotonic()
                after = ws.run("goto", me, timeout=120)
                times.append(time.monotonic() - start)
                worked += after.code == 0
                kept += "LOGGED-IN" in ws.run("text").out
                lived += ws.daemon_pid() == daemon
                if after.code != 0:
                    ws.run("restart", timeout=120)  # each round starts from a working daemon
            slowest = max(times) if times else 0
            rows.append(
                (
                    kind,
                    f"{worked} / {ROUNDS} next command worked; {kept} / {ROUNDS} login kept; "
                    f"{lived} / {ROUNDS} same daemon; {said} / {ROUNDS} cut commands said it was restarted",
                    f"next command took at most {slowest:.1f} s",
                )
            )
    finally:
        ws.close()
    return rows
