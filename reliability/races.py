"""Races: many CLIs start at once in a workspace with no daemon; one daemon must serve them all."""

from __future__ import annotations

import re

from common import Workspace

WAYS = 20
ROUNDS = 10


def run() -> list[tuple[str, str]]:
    ws = Workspace("races")
    ok = 0
    single = 0
    try:
        for _ in range(ROUNDS):
            ws.run("stop", timeout=60)
            before = _listening(ws)
            procs = [ws.start("url") for _ in range(WAYS)]
            results = [(p.wait(timeout=180), p.stdout.read() if p.stdout else "") for p in procs]
            ok += sum(1 for code, out in results if code == 0 and out.strip() == "about:blank")
            single += _listening(ws) - before == 1
    finally:
        ws.close()
    return [
        ("cold starts", f"{WAYS}-way × {ROUNDS} rounds"),
        ("commands that succeeded", f"{ok} / {WAYS * ROUNDS}"),
        ("rounds served by exactly one new daemon", f"{single} / {ROUNDS}"),
    ]


def _listening(ws: Workspace) -> int:
    log = ws.state_dir / "daemon.log"
    return len(re.findall(r"daemon \d+ listening", log.read_text())) if log.exists() else 0
