"""Run the tasks: each app started once, each task by each script, checked against the app's state.

A task run gets a session of its own (`BROWSE_SESSION`) or a fresh
@playwright/mcp server (`--isolated`), so no login or tab carries over from
one script to the next. The figures of each run: passed, calls, characters
the agent read back (stdout and stderr; for MCP the tool results, plus its
`tools/list` schema once per task, the way a client sends it to the model),
errors and false errors.
"""

from __future__ import annotations

import time
from typing import Any

from harness.mcp_tool import PlaywrightMcp

from agent.apps import App, all_apps, ensure_venv
from agent.apps_more import more_apps
from agent.drivers import Browse, Mcp, TaskFailed
from agent.tasks import TASKS, Task
from agent.tasks_more import MORE_TASKS

PHASES = ("before", "after", "playwright-mcp")
CHECK_SECONDS = 10.0


def run_suite(
    env: dict[str, str], browse: str, make_mcp: Any, phases: list[str], only: str = ""
) -> dict[str, Any]:
    tasks = [task for task in [*TASKS, *MORE_TASKS] if only in task.name]
    apps = {
        name: app for name, app in {**all_apps(), **more_apps()}.items() if any(t.app == name for t in tasks)
    }
    if set(apps) & set(all_apps()):
        ensure_venv()
    results: dict[str, Any] = {}
    try:
        for app in apps.values():
            app.start()
        for task in tasks:
            results[task.name] = {
                phase: one_run(task, apps[task.app], phase, env, browse, make_mcp) for phase in phases
            }
    finally:
        for app in apps.values():
            app.stop()
    return {"tasks": results, "totals": totals(results, phases)}


def one_run(
    task: Task, app: App, phase: str, env: dict[str, str], browse: str, make_mcp: Any
) -> dict[str, Any]:
    run_id = f"{phase[0]}{int(time.time() * 1000) % 10**8}"
    started = time.monotonic()
    print(f"   {task.name} / {phase}", flush=True)
    app.fresh()
    if phase == "playwright-mcp":
        server: PlaywrightMcp = make_mcp()
        server.launch()
        driver: Browse | Mcp = Mcp(server)
        script = task.mcp
    else:
        driver = Browse(browse, {**env, "BROWSE_SESSION": f"agent-{run_id}"})
        script = task.before if phase == "before" else task.after
    answer, failure = "", ""
    try:
        answer = script(driver, app, run_id)
    except TaskFailed as exc:
        failure = str(exc)
    finally:
        if isinstance(driver, Mcp):
            driver.server.stop()
    passed, detail = settled_check(task, app, run_id, answer)
    row: dict[str, Any] = {**driver.tally.figures(), "passed": passed and not failure}
    if isinstance(driver, Mcp):
        row["schema_chars"] = driver.server.tools_list_chars
    row.update(
        seconds=round(time.monotonic() - started, 1),
        detail=failure or detail,
        commands=driver.tally.commands(),
    )
    if not row["passed"]:
        row["last_read"] = driver.last[-3000:]
        print(f"     failed: {row['detail'][:200]}", flush=True)
    return row


def settled_check(task: Task, app: App, run_id: str, answer: str) -> tuple[bool, str]:
    """The check, given a few seconds for a request the last action started to finish."""
    deadline = time.monotonic() + CHECK_SECONDS
    while True:
        passed, detail = task.check(app, run_id, answer)
        if passed or time.monotonic() > deadline:
            return passed, detail
        time.sleep(0.25)


def totals(results: dict[str, Any], phases: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for phase in phases:
        rows = [runs[phase] for runs in results.values() if phase in runs]
        out[phase] = {
            key: sum(int(r.get(key, 0)) for r in rows)
            for key in ("calls", "chars", "errors", "false_errors", "rereads", "screenshots", "schema_chars")
        }
        out[phase]["passed"] = sum(1 for r in rows if r["passed"])
        out[phase]["tasks"] = len(rows)
    return out
