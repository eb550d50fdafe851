"""Secrets: a scripted session types a password and imports cookies; then nothing may show them.

Searched: every log in the state directory (daemon.log, console, network and
dialog logs; the saved logins are meant to hold cookies), the output and errors of every
command, and the command lines and environments of the daemon, the driver
and Chromium (`/proc/PID/cmdline`, `/proc/PID/environ`, as `ps e` shows them).
A password field's text given in `fill`'s command line (which `ps` shows every
local user) is refused before anything is typed, unless --allow-argv-secret.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from common import Site, Workspace, roles

PASSWORD = "Pw-0f-the-reliability-suite"
COOKIE = "cookie-value-of-the-reliability-suite"


def run() -> list[tuple[str, str]]:
    site = Site()
    ws = Workspace("secrets")
    form = site.page(
        "/login",
        "<form><input id=user name=user><input id=pw type=password name=pw>"
        "<button>Sign in</button></form><script>document.querySelector('#pw').addEventListener("
        "'input', e => console.log('typed something'))</script>",
    )
    jar = ws.root / "jar.json"
    jar.write_text(json.dumps([{"name": "sid", "value": COOKIE, "domain": "127.0.0.1", "path": "/"}]))
    outputs: dict[str, str] = {}
    try:
        ws.run("goto", form)
        refusal = _argv_password(ws)
        steps = [
            ("goto", form),
            ("fill", "#user", "alice"),
            ("fill", "#pw", PASSWORD, "--allow-argv-secret"),
            ("click", "#pw"),
            ("type", PASSWORD),
            ("cookie-import", str(jar)),
            ("snapshot",),
            ("snapshot", "-i"),
            ("forms",),
            ("html",),
            ("console",),
            ("network",),
            ("cookies",),
            ("status",),
            ("fill", "#missing", PASSWORD),
            ("js", "document.cookie"),
            ("storage",),
        ]
        for step in steps:
            result = ws.run(*step)
            outputs[" ".join(step[:2])] = result.out + result.err
        info = json.loads((ws.state_dir / "daemon.json").read_text())
        token = str(info.get("token", ""))
        processes = _process_text(ws)
        files = _state_files(ws)
    finally:
        ws.close()
    secrets = {"password": PASSWORD, "cookie value": COOKIE, "daemon token": token}
    rows = []
    for label, secret in secrets.items():
        in_outputs = [step for step, text in outputs.items() if secret in text]
        in_files = [name for name, text in files.items() if secret in text]
        in_ps = sum(secret in text for text in processes)
        where = (
            f"outputs/errors: {len(in_outputs)} {in_outputs or ''}; logs: {len(in_files)} {in_files or ''}"
        )
        rows.append((label, f"{where}; ps: {in_ps}"))
    return [*rows, refusal]


def _argv_password(ws: Workspace) -> tuple[str, str]:
    """`fill` of a password field with its text in argv, alone and beside another field: refused
    (exit 2, the error naming `-` and the vault), nothing typed; typed with a hint when allowed."""
    forms = (("#pw", PASSWORD), ("#user", "bob", "#pw", PASSWORD))
    refused = [ws.run("fill", *argv) for argv in forms]
    held = ws.run("js", "user.value.length + pw.value.length").out.splitlines()
    typed = held[1] if len(held) > 1 else "?"
    codes = sorted({r.code for r in refused})
    named = all(" - " in r.err and "auth login" in r.err and PASSWORD not in r.err for r in refused)
    allowed = ws.run("fill", "#pw", PASSWORD, "--allow-argv-secret")
    hinted = allowed.code == 0 and "printf %s" in allowed.out
    return (
        "a password field's text in `fill`'s argv",
        f"exit {codes} for {len(forms)} forms, error names `-` and the vault: {named}; characters typed: "
        f"{typed}; with --allow-argv-secret: exit {allowed.code}, hint kept: {hinted}",
    )


def _process_text(ws: Workspace) -> list[str]:
    daemon = ws.daemon_pid()
    texts = []
    for pids in roles(daemon).values() if daemon else ():
        for pid in pids:
            for part in ("cmdline", "environ"):
                with contextlib.suppress(OSError):
                    texts.append(Path(f"/proc/{pid}/{part}").read_bytes().decode(errors="replace"))
    return texts


def _state_files(ws: Workspace) -> dict[str, str]:
    found = {}
    for path in ws.state_dir.rglob("*"):
        if path.is_file() and path.suffix == ".log":  # saved logins (*.json) are meant to hold cookies
            found[str(path.relative_to(ws.state_dir))] = path.read_bytes().decode(errors="replace")
    return found
