"""`make bench`: refbrowse side by side with agent-browser, @playwright/cli and @playwright/mcp, in one run.

Installs the peers (bench/peers/, from npm) and the large documents if
missing, serves the fixture pages on 127.0.0.1, points every tool at the same
Chromium with the same flags, runs the sections, and writes bench/RESULTS.md
and bench/results/*.json. `--quick` is a smoke run (3 runs, a small flood);
`--sections` runs some sections only (RESULTS.md then holds only those).
`--out DIR` writes RESULTS.md and results/ there instead: a quick run goes to
a temporary directory unless told otherwise, so it never replaces real figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from agent import report as agent
from harness import report, setup
from harness.agentbrowser_tool import AgentBrowser
from harness.context import Context
from harness.mcp_tool import PlaywrightMcp
from harness.playwrightcli_tool import PlaywrightCli
from harness.refbrowse_mcp_tool import RefbrowseMcp
from harness.refbrowse_tool import REPO, Refbrowse
from harness.sections import cold, flood, memory, profile, snapshots, task, warm
from harness.tool import Tool

from refbrowse.daemon.core.browser.chromium import launch_flags

BENCH = os.path.join(REPO, "bench")
SECTIONS: dict[str, ModuleType] = {
    "cold": cold,
    "warm": warm,
    "task": task,
    "memory": memory,
    "snapshots": snapshots,
    "flood": flood,
    "profile": profile,
    "agent": agent,
}


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs per figure (default 15)")
    parser.add_argument("--warm-runs", type=int, default=20, help="runs of warm goto/url/text (default 20)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 3 runs, a small flood")
    parser.add_argument(
        "--out", help="where RESULTS.md and results/ go (default bench/; a temp dir if --quick)"
    )
    parser.add_argument(
        "--sections", default=",".join(SECTIONS), help="comma-separated, of: " + ", ".join(SECTIONS)
    )
    parser.add_argument(
        "--tools", help="comma-separated tool names to run (default all), e.g. refbrowse,agent-browser"
    )
    parser.add_argument(
        "--base",
        help="another checkout of refbrowse (with its .venv), measured alongside as refbrowse (base)",
    )
    return parser.parse_args()


def start_server(docs: bool) -> tuple[subprocess.Popen[str], str]:
    script = os.path.join(BENCH, "harness", "server.py")
    fixtures = os.path.join(BENCH, "fixtures")
    docs_root = setup.DOCS_ROOT if docs else fixtures
    proc = subprocess.Popen([sys.executable, script, fixtures, docs_root], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, f"http://127.0.0.1:{proc.stdout.readline().strip()}"


def make_tools(workdir: str, base: str | None) -> dict[str, Tool]:
    peers, flags = os.path.join(BENCH, "peers"), launch_flags()
    tools: list[Tool] = [
        Refbrowse(workdir, setup.CHROMIUM),
        *([Refbrowse(workdir, setup.CHROMIUM, base)] if base else []),
        RefbrowseMcp(workdir, setup.CHROMIUM),
        AgentBrowser(peers, workdir, setup.CHROMIUM, flags),
        PlaywrightCli(peers, workdir, setup.CHROMIUM, flags),
        PlaywrightMcp(peers, workdir, setup.CHROMIUM, flags, settle=True),
        PlaywrightMcp(peers, workdir, setup.CHROMIUM, flags, settle=False),
    ]
    return {tool.name: tool for tool in tools}


def metadata(tools: dict[str, Tool], argv: list[str]) -> dict[str, Any]:
    versions = {
        name: tool.version().removeprefix(name).strip()
        for name, tool in tools.items()
        if "settle 0" not in name and "via MCP" not in name
    }
    versions.update(setup.versions(os.path.join(REPO, ".venv", "bin", "python")))
    extra = " ".join(argv)
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": setup.machine(),
        "versions": versions,
        "tools": list(tools),
        "chromium": setup.CHROMIUM,
        "flags": launch_flags(),
        "command": "make bench" if not extra else f".venv/bin/python bench/run.py {extra}",
        "errors": {},
        "sections": {},
    }


def run_section(name: str, ctx: Context, meta: dict[str, Any], out: str) -> dict[str, Any] | None:
    print(f"== {name}", flush=True)
    started, load = time.monotonic(), os.getloadavg()[0]
    try:
        result: dict[str, Any] = SECTIONS[name].run(ctx)
    except Exception as exc:  # noqa: BLE001 - one broken section must not lose the others' results
        traceback.print_exc()
        meta["errors"][name] = f"{type(exc).__name__}: {exc}"
        return None
    seconds = time.monotonic() - started
    print(f"   {name} took {seconds:.0f} s", flush=True)
    meta["sections"][name] = {"seconds": seconds, "load_at_start": load, "load_at_end": os.getloadavg()[0]}
    save(out, name, {"meta": meta, "seconds": seconds, "result": result})
    return result


def save(out: str, name: str, data: dict[str, Any]) -> None:
    os.makedirs(os.path.join(out, "results"), exist_ok=True)
    with open(os.path.join(out, "results", f"{name}.json"), "w") as f:
        json.dump(data, f, indent=1, default=str)
        f.write("\n")


def chosen_sections(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in SECTIONS]
    if unknown:
        sys.exit(f"unknown section {', '.join(unknown)}: choose among {', '.join(SECTIONS)}")
    return names


def run_all(names: list[str], ctx: Context, meta: dict[str, Any], out: str) -> dict[str, Any]:
    results: dict[str, Any] = {}
    started = time.monotonic()
    for name in names:
        outcome = run_section(name, ctx, meta, out)
        if outcome is not None:
            results[name] = outcome
    meta["seconds"] = time.monotonic() - started
    meta["load_at_end"] = list(os.getloadavg())
    return results


def main() -> int:
    args = arguments()
    names = chosen_sections(args.sections)
    setup.ensure_peers(os.path.join(BENCH, "peers"))
    docs = setup.ensure_docs()
    workdir = tempfile.mkdtemp(prefix="refbrowse-bench-")
    out = args.out or (tempfile.mkdtemp(prefix="refbrowse-bench-quick-") if args.quick else BENCH)
    os.makedirs(out, exist_ok=True)
    server, base = start_server(docs)
    tools = make_tools(workdir, args.base)
    if args.tools:
        keep = {name.strip() for name in args.tools.split(",")} | (
            {"refbrowse (base)"} if args.base else set()
        )
        tools = {name: tool for name, tool in tools.items() if name in keep}
    runs, warm_runs = (3, 3) if args.quick else (args.runs, args.warm_runs)
    ctx = Context(base, tools, runs, warm_runs, docs, quick=args.quick)
    meta = metadata(tools, sys.argv[1:])
    try:
        results = run_all(names, ctx, meta, out)
    finally:
        for tool in tools.values():
            tool.stop()
        server.terminate()
        shutil.rmtree(workdir, ignore_errors=True)
    with open(os.path.join(out, "RESULTS.md"), "w") as f:
        f.write(report.render(meta, results))
    print(f"wrote {os.path.join(out, 'RESULTS.md')} in {meta['seconds']:.0f} s", flush=True)
    return 1 if meta["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
