"""The suite's figures: measured, saved to results/agent.json, and rendered as a table.

Targets, from the issue that asked for the suite: every task passes; calls
per task at least 30% fewer after than before; characters per task at most
30% of @playwright/mcp's (its tool schema included); no false errors.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from datetime import UTC, datetime
from typing import Any

from harness import setup
from harness.context import Context
from harness.mcp_tool import PlaywrightMcp
from harness.refbrowse_tool import REPO, Refbrowse

from agent.suite import run_suite
from refbrowse.daemon.core.browser.chromium import launch_flags

ANSI = re.compile(r"\x1b\[[0-9;]*m")
BEGIN, END = "<!-- agent tasks -->", "<!-- /agent tasks -->"
PEERS = os.path.join(REPO, "bench", "peers")


def measure(workdir: str, phases: list[str], argv: str, only: str = "") -> dict[str, Any]:
    """Run the suite with a refbrowse of its own and fresh @playwright/mcp servers."""
    ours = Refbrowse(workdir, setup.CHROMIUM)
    try:
        result = run_suite(ours.env, ours.executable, mcp_factory(workdir), phases, only)
        version = ours.version()
    finally:
        ours.stop()
    return {"meta": meta(version, argv), "result": result}


def mcp_factory(workdir: str) -> Any:
    flags = launch_flags()
    return lambda: PlaywrightMcp(PEERS, tempfile.mkdtemp(dir=workdir), setup.CHROMIUM, flags, settle=True)


def meta(version: str, argv: str) -> dict[str, Any]:
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": setup.machine(),
        "refbrowse": version,
        "commit": _head(),
        "command": ".venv/bin/python bench/agent/run.py" + (f" {argv}" if argv else ""),
    }


def _head() -> str:
    try:
        with open(os.path.join(REPO, ".git")) as f:  # a worktree's .git is a file
            gitdir = f.read().split(":", 1)[1].strip()
    except (OSError, IndexError):
        gitdir = os.path.join(REPO, ".git")
    except IsADirectoryError:
        gitdir = os.path.join(REPO, ".git")
    try:
        with open(os.path.join(gitdir, "HEAD")) as f:
            head = f.read().strip()
        if head.startswith("ref: "):
            common = gitdir.split("/worktrees/")[0]
            with open(os.path.join(common, head[5:])) as f:
                return f.read().strip()[:12]
        return head[:12]
    except OSError:
        return ""


def run(ctx: Context) -> dict[str, Any]:
    """The `agent` section of `make bench`."""
    ours = ctx.tools["refbrowse"]
    assert isinstance(ours, Refbrowse)
    workdir = tempfile.mkdtemp(prefix="refbrowse-agent-")
    return run_suite(ours.env, ours.executable, mcp_factory(workdir), ["before", "after", "playwright-mcp"])


def save(out: str, data: dict[str, Any]) -> None:
    os.makedirs(os.path.join(out, "results"), exist_ok=True)
    with open(os.path.join(out, "results", "agent.json"), "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    path = os.path.join(out, "RESULTS.md")
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        text = "# Benchmark results\n"
    block = "\n".join([BEGIN, *render(data["result"], data["meta"]), END])
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else text.rstrip() + "\n\n" + block
    with open(path, "w") as f:
        f.write(text.rstrip() + "\n")


def _cell(row: dict[str, Any] | None, key: str) -> str:
    if row is None:
        return "–"
    value = row.get(key, 0)
    return f"{value:,}" if isinstance(value, int) else str(value)


def _passed(row: dict[str, Any] | None) -> str:
    return "–" if row is None else ("yes" if row["passed"] else "**no**")


def _pct(new: int | None, old: int | None) -> str:
    return "–" if not new or not old else f"{100 * (new - old) / old:+.0f}%"


def _share(ours: dict[str, Any] | None, mcp: dict[str, Any] | None) -> str:
    if not ours or not mcp:
        return "–"
    theirs = mcp["chars"] + mcp.get("schema_chars", 0)
    return f"{ours['chars'] / theirs:.2f}" if theirs else "–"


def render(result: dict[str, Any], meta: dict[str, Any] | None = None) -> list[str]:
    out = ["## Agent tasks on real applications", ""]
    if meta:
        machine = meta["machine"]
        out += [
            f"- date: {meta['date']}; {meta['refbrowse']} at commit {meta['commit']}; "
            f"{machine['cores']} cores, {machine['cpu']}, load {machine['load_at_start'][0]:.2f}",
            f"- reproduce: `{meta['command']}` (or `make bench`, section `agent`)",
        ]
    out += [
        "- calls and characters: what the agent ran and read back (stdout and stderr); "
        "MCP characters add its `tools/list` schema once per task",
        "- false errors: an action that should have worked failed as covered, stale or timed out",
        "",
        "| task | passed (before / after / mcp) | calls before | calls after | change | false errors "
        "(before / after) | chars after | chars mcp (+schema) | after ÷ mcp |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    rows = {**result["tasks"], "total": result["totals"]}
    for name, runs in rows.items():
        b, a, m = (runs.get(p) for p in ("before", "after", "playwright-mcp"))
        passed = " / ".join(
            (f"{r['passed']}/{r['tasks']}" if name == "total" else _passed(r)) if r else "–"
            for r in (b, a, m)
        )
        mcp_chars = "–" if m is None else f"{m['chars']:,} (+{m.get('schema_chars', 0):,})"
        out.append(
            f"| {name} | {passed} | {_cell(b, 'calls')} | {_cell(a, 'calls')} "
            f"| {_pct(a and a['calls'], b and b['calls'])} | {_cell(b, 'false_errors')} / "
            f"{_cell(a, 'false_errors')} | {_cell(a, 'chars')} | {mcp_chars} | {_share(a, m)} |"
        )
    return [*out, "", *targets(result["totals"]), "", *_failures(result)]


def targets(sums: dict[str, Any]) -> list[str]:
    """The suite's targets against this run's totals ("after" is refbrowse as it is now)."""
    b, a, m = (sums.get(p) for p in ("before", "after", "playwright-mcp"))
    if a is None:
        return []
    out = ["| target | measured | met |", "| --- | --- | --- |"]
    out.append(f"| every task passes | {a['passed']} of {a['tasks']} | {_yes(a['passed'] == a['tasks'])} |")
    if b and b["calls"]:
        cut = 1 - a["calls"] / b["calls"]
        out.append(
            f"| calls at least 30% fewer than before | {b['calls']} → {a['calls']} ({cut:.0%} fewer) "
            f"| {_yes(cut >= 0.3)} |"
        )
    if m:
        share = a["chars"] / max(1, m["chars"] + m.get("schema_chars", 0))
        out.append(f"| characters ≤ 30% of @playwright/mcp's | {share:.0%} | {_yes(share <= 0.3)} |")
    out.append(f"| no false errors | {a['false_errors']} | {_yes(a['false_errors'] == 0)} |")
    return out


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


def _one_line(text: str) -> str:
    return " ".join(ANSI.sub("", text).split())


def _failures(result: dict[str, Any]) -> list[str]:
    return [
        f"- {name} / {phase} failed: {_one_line(row['detail'])[:200]}"
        for name, runs in result["tasks"].items()
        for phase, row in runs.items()
        if not row["passed"]
    ]
