"""One agent script run by two builds of refbrowse: a base checkout (with its own .venv) and this one.

    .venv/bin/python bench/agent/compare.py --base ../checkout-at-main [--tasks jupyterlab,python-docs]

Each selected task's "after" script (the one that trusts each action's
report) runs with the base build, then with this build, in sessions of their
own; the figures per task are calls, characters read back, re-reads (a
snapshot taken only because the report lacked the ref), screenshots taken to
read text, and false errors. The table goes into bench/RESULTS.md between its
own markers, the raw figures into results/agent-compare.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from datetime import UTC, datetime
from typing import Any

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, BENCH)

from harness import setup  # noqa: E402
from harness.refbrowse_tool import Refbrowse  # noqa: E402

from agent.apps import App, all_apps, ensure_venv  # noqa: E402
from agent.apps_more import more_apps  # noqa: E402
from agent.drivers import Browse, TaskFailed  # noqa: E402
from agent.report import _head  # noqa: E402
from agent.suite import settled_check  # noqa: E402
from agent.tasks import TASKS, Task  # noqa: E402
from agent.tasks_more import MORE_TASKS  # noqa: E402

BEGIN, END = "<!-- agent tasks: base and this build -->", "<!-- /agent tasks: base and this build -->"
FIGURES = ("calls", "chars", "rereads", "screenshots", "false_errors")


def one(task: Task, app: App, tool: Refbrowse) -> dict[str, Any]:
    run_id = f"r{int(time.time() * 1000) % 10**8}"
    print(f"   {task.name} / {tool.name}", flush=True)
    app.fresh()
    driver = Browse(tool.executable, {**tool.env, "BROWSE_SESSION": f"cmp-{run_id}"})
    answer, failure = "", ""
    try:
        answer = task.after(driver, app, run_id)
    except TaskFailed as exc:
        failure = str(exc)
    passed, detail = settled_check(task, app, run_id, answer)
    row: dict[str, Any] = {**driver.tally.figures(), "passed": passed and not failure}
    row.update(detail=failure or detail, commands=driver.tally.commands())
    if driver.tally.missed:
        row["reread_after"] = driver.tally.missed
    if not row["passed"]:
        row["last_read"] = driver.last[-2000:]
        print(f"     failed: {row['detail'][:200]}", flush=True)
    return row


def measure(base: str, only: list[str], workdir: str) -> dict[str, Any]:
    tasks = [t for t in [*TASKS, *MORE_TASKS] if not only or any(o in t.name for o in only)]
    apps = {n: a for n, a in {**all_apps(), **more_apps()}.items() if any(t.app == n for t in tasks)}
    if set(apps) & set(all_apps()):
        ensure_venv()
    tools = [
        Refbrowse(workdir, setup.CHROMIUM, base),
        Refbrowse(os.path.join(workdir, "now"), setup.CHROMIUM),
    ]
    results: dict[str, Any] = {}
    try:
        for app in apps.values():
            app.start()
        for task in tasks:
            results[task.name] = {tool.name: one(task, apps[task.app], tool) for tool in tools}
    finally:
        for tool in tools:
            tool.stop()
        for app in apps.values():
            app.stop()
    return results


def render(results: dict[str, Any], meta: dict[str, str]) -> list[str]:
    out = [
        "## Agent tasks: the base build against this one",
        "",
        f"- date: {meta['date']}; this build at commit {meta['commit']}, base at {meta['base']}; "
        f"load {meta['load']}",
        f"- machine: {meta.get('machine', 'not recorded')}",
        f"- reproduce: `{meta['command']}`",
        "- each task's \"after\" script (it trusts each action's report) run by both builds; re-reads: "
        "snapshots taken only because the report lacked the ref; screenshots: taken to read text",
        "",
        "| task | passed (base / now) | calls | characters | re-reads | screenshots | false errors |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    totals = {tool: dict.fromkeys(FIGURES, 0) for tool in ("refbrowse (base)", "refbrowse")}
    for name, runs in results.items():
        base, now = runs["refbrowse (base)"], runs["refbrowse"]
        cells = [f"{base[k]:,} → {now[k]:,}" for k in FIGURES]
        passed = f"{'yes' if base['passed'] else '**no**'} / {'yes' if now['passed'] else '**no**'}"
        out.append(f"| {name} | {passed} | " + " | ".join(cells) + " |")
        for tool, row in runs.items():
            for k in FIGURES:
                totals[tool][k] += row[k]
    b, n = totals["refbrowse (base)"], totals["refbrowse"]
    change = [
        f"{b[k]:,} → {n[k]:,}" + (f" ({100 * (n[k] - b[k]) / b[k]:+.0f}%)" if b[k] else "") for k in FIGURES
    ]
    out.append("| **total** | | " + " | ".join(change) + " |")
    out += ["", _targets(b, n)]
    failures = [
        f"- {name} / {tool} failed: {' '.join(row['detail'].split())[:200]}"
        for name, runs in results.items()
        for tool, row in runs.items()
        if not row["passed"]
    ]
    return [*out, "", *failures]


def _targets(base: dict[str, int], now: dict[str, int]) -> str:
    """The suite's targets against the base build, and whether the totals meet them."""
    checks = [
        ("calls −25%", now["calls"] <= 0.75 * base["calls"]),
        ("characters −40%", now["chars"] <= 0.60 * base["chars"]),
        ("0 re-reads", now["rereads"] == 0),
        ("0 screenshots to read", now["screenshots"] == 0),
        ("0 false errors", now["false_errors"] == 0),
    ]
    return "- targets against the base: " + ", ".join(
        f"{what} {'met' if ok else '**not met**'}" for what, ok in checks
    )


def save(out: str, results: dict[str, Any], meta: dict[str, str]) -> None:
    os.makedirs(os.path.join(out, "results"), exist_ok=True)
    with open(os.path.join(out, "results", "agent-compare.json"), "w") as f:
        json.dump({"meta": meta, "result": results}, f, indent=1)
        f.write("\n")
    path = os.path.join(out, "RESULTS.md")
    text = ""
    if os.path.exists(path):  # a fresh --out folder gets one with the table alone
        with open(path) as f:
            text = f.read()
    block = "\n".join([BEGIN, *render(results, meta), END])
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else text.rstrip() + "\n\n" + block
    with open(path, "w") as f:
        f.write(text.rstrip() + "\n")


def _machine() -> str:
    found = setup.machine()
    return f"{found['cores']} cores, {found['cpu']}, {found['memory_gb']} GB, Linux {found['kernel']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="a checkout of refbrowse with its own .venv")
    parser.add_argument("--tasks", default="", help="comma-separated parts of task names (default: all)")
    parser.add_argument("--out", default=BENCH, help="where results/ and RESULTS.md go")
    args = parser.parse_args()
    only = [t.strip() for t in args.tasks.split(",") if t.strip()]
    with tempfile.TemporaryDirectory(prefix="refbrowse-compare-") as workdir:
        results = measure(os.path.abspath(args.base), only, workdir)
    meta = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _head(),
        "base": os.popen(f"git -C {args.base} rev-parse --short=12 HEAD").read().strip(),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "machine": _machine(),
        "command": ".venv/bin/python bench/agent/compare.py " + " ".join(sys.argv[1:]),
    }
    save(args.out, results, meta)
    return 0 if all(r["passed"] for runs in results.values() for r in runs.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
