"""bench/RESULTS.md from the sections' results: the header, the targets, one part per section."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent import report as agent

from harness.context import OURS
from harness.tables import (
    NA,
    breakdown_table,
    flood_table,
    memory_table,
    profile_tables,
    share_table,
    snapshot_table,
    timing_table,
)


def median_of(fig: dict[str, Any] | None, name: str) -> float | None:
    stats = (fig or {}).get("summary", {}).get(name)
    return None if stats is None else float(stats["median"])


def targets(results: dict[str, Any]) -> list[str]:
    warm, cold = results.get("warm", {}), results.get("cold", {})
    url_ms, cold_s = median_of(warm.get("url"), OURS), median_of(cold.get("cold start"), OURS)
    lines = ["| target | measured | met |", "| --- | --- | --- |"]
    if url_ms is not None:
        lines.append(
            f"| warm `browse url` median ≤ 35 ms | {url_ms * 1000:.0f} ms | {_yes(url_ms <= 0.035)} |"
        )
    if cold_s is not None:
        lines.append(f"| cold start median ≤ 1.5 s | {cold_s:.2f} s | {_yes(cold_s <= 1.5)} |")
        lines.append(f"| cold start median ≤ 1.0 s | {cold_s:.2f} s | {_yes(cold_s <= 1.0)} |")
    for path, row in results.get("snapshots", {}).get("pages", {}).items():
        lines += _snapshot_targets(path, row)
    return lines + _speed_targets(results) + _mcp_targets(results.get("task", {}))


# Against agent-browser, medians: (section, figure, at most this many times its time)
_SPEED_TARGETS = [
    ("cold", "cold start", 1.0),
    *(
        ("warm", figure, 1.0)
        for figure in ("snapshot -i after goto", "click @ref", "fill @ref", "select @ref")
    ),
    ("warm", "goto", 1.0),
    *(("warm", figure, 2.0) for figure in ("url", "text", "evaluate js")),
    ("task", "wall time", 1.0),
]


_LABELS = {"cold start": "cold start", "wall time": "scripted task, wall time"}


def _speed_targets(results: dict[str, Any]) -> list[str]:
    """refbrowse's CLI against agent-browser, figure by figure (the speed issue's targets)."""
    lines = []
    for section, figure, limit in _SPEED_TARGETS:
        fig = results.get(section, {}).get(figure)
        ours, theirs = median_of(fig, OURS), median_of(fig, "agent-browser")
        if ours is None or not theirs:
            continue
        unit, scale, digits = ("s", 1, 2) if section == "task" else ("ms", 1000, 0)
        measured = f"{ours * scale:,.{digits}f} vs {theirs * scale:,.{digits}f} {unit}"
        label = _LABELS.get(figure, f"`{figure}`")
        lines.append(
            f"| {label} ≤ {limit:.1f}× agent-browser's | {measured} ({ours / theirs:.2f}×) "
            f"| {_yes(ours <= limit * theirs)} |"
        )
    return lines


OURS_MCP = "refbrowse via MCP"


def _mcp_targets(task: dict[str, Any]) -> list[str]:
    """refbrowse's MCP server against @playwright/mcp on the task: medians compared."""
    wall, chars = task.get("wall time"), task.get("characters per task, tools/list included")
    ours_wall, ours_chars = median_of(wall, OURS_MCP), median_of(chars, OURS_MCP)
    checks = [
        (
            "task wall ≤ 0.5× @playwright/mcp's (default settle)",
            ours_wall,
            median_of(wall, "playwright-mcp"),
            0.5,
        ),
        (
            "task wall ≤ 1.0× @playwright/mcp's (settle 0)",
            ours_wall,
            median_of(wall, "playwright-mcp (settle 0)"),
            1.0,
        ),
        (
            "task characters incl. tools/list ≤ 30% of @playwright/mcp's",
            ours_chars,
            median_of(chars, "playwright-mcp"),
            0.3,
        ),
    ]
    lines = []
    for label, ours, theirs, limit in checks:
        if ours is not None and theirs:
            digits = 2 if "wall" in label else 0
            measured = f"{ours:,.{digits}f} vs {theirs:,.{digits}f} ({ours / theirs:.2f}×)"
            lines.append(f"| MCP: {label} | {measured} | {_yes(ours <= limit * theirs)} |")
    return lines


def _chars(row: dict[str, Any], tool: str, kind: str) -> int | None:
    cell = (row.get(tool) or {}).get(kind) or {}
    return cell.get("chars")


def _snapshot_targets(path: str, row: dict[str, Any]) -> list[str]:
    lines = []
    ours_i, theirs_i = _chars(row, OURS, "interactive"), _chars(row, "agent-browser", "interactive")
    if ours_i is not None and theirs_i:
        verdict = _yes(ours_i <= theirs_i)
        lines.append(
            f"| `{path}`: `snapshot -i` ≤ agent-browser's | {ours_i:,} vs {theirs_i:,} chars | {verdict} |"
        )
    ours_f, theirs_f = _chars(row, OURS, "full"), _chars(row, "playwright-mcp", "full")
    if ours_f is not None and theirs_f:
        verdict = _yes(ours_f <= theirs_f / 2)
        lines.append(
            f"| `{path}`: full snapshot ≤ ½ @playwright/mcp's | {ours_f:,} vs {theirs_f:,} chars "
            f"| {verdict} |"
        )
    if ours_i is None and ours_f is None:
        lines.append(f"| `{path}`: snapshot sizes | {NA} | – |")
    return lines


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


def header(meta: dict[str, Any]) -> list[str]:
    machine, versions = meta["machine"], meta["versions"]
    tools = ", ".join(f"{k} {v}" for k, v in versions.items())
    return [
        "# Benchmark results",
        "",
        f"- date: {meta['date']}",
        f"- machine: {machine['cores']} cores, {machine['cpu']}, {machine['memory_gb']} GB, "
        f"Linux {machine['kernel']}; load average at start {machine['load_at_start'][0]:.2f}, "
        f"at end {meta.get('load_at_end', [0.0])[0]:.2f}",
        f"- versions: {tools}",
        f"- same Chromium and flags for all: `{meta['chromium']}` `{' '.join(meta['flags'])}`",
        f"- reproduce: `{meta['command']}` (took {meta.get('seconds', 0):.0f} s)",
        "- what each figure means and its caveats: bench/README.md; raw per-run data: bench/results/*.json",
        "",
        "A ratio is refbrowse ÷ peer, taken run by run (tools alternate within each run) and "
        "summarised by its median: below 1 means refbrowse is faster (or smaller).",
        "",
    ]


def cold_section(result: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    return ["## 1. Cold start", "", *timing_table(result)]


def warm_section(result: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    flags = result.get("chromium flags missing", {})
    figures = {k: v for k, v in result.items() if k != "chromium flags missing"}
    out = ["## 2. Warm per-command latency", "", *timing_table(figures)]
    return out + [f"- {n}'s Chromium lacks the shared flags {' '.join(m)}" for n, m in flags.items() if m]


def task_section(task: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    out = ["## 3. Scripted task (12 steps on the local shop)", ""]
    out += timing_table({"wall time": task["wall time"]}, "s", 1.0, 2)
    out += ["", *timing_table({"characters printed": task["characters printed"]}, "chars", 1.0, 0), ""]
    with_schema = task.get("characters per task, tools/list included")
    if with_schema:
        label = "characters per task, tools/list included"
        out += [*timing_table({label: with_schema}, "chars", 1.0, 0), ""]
    for name, chars in task.get("tool schema characters (tools/list)", {}).items():
        out.append(f"- {name}: `tools/list` schema, sent to the model once per session: {chars:,} chars")
    out += ["", "Where the task's time goes, per command (all runs):", ""]
    return out + breakdown_table(task.get("per command", {}))


def snapshots_section(result: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    tools = [t for t in (OURS, "agent-browser", "playwright-mcp") if t in meta["tools"]]
    out = ["## 4. Snapshot size (characters, and actionable refs in brackets)", ""]
    out += [*snapshot_table(result["pages"], tools), ""]
    out += ["The same, counting only the tree's lines (no header, footer or fence):", ""]
    out += [*snapshot_table(result["pages"], tools, "tree_chars"), ""]
    out += [
        "Share of the page's actionable elements that got a ref (from `snapshot -i`; MCP: its snapshot):",
        "",
    ]
    return out + share_table(result["pages"], tools)


def memory_section(result: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    return ["## 5. Memory after the scripted task", "", *memory_table(result)]


def flood_section(flood: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    title = f"## 6. Console flood ({flood['messages']:,} messages in tab 2, `url` on tab 1)"
    return [title, "", *flood_table(flood)]


def profile_section(result: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    return [
        "## 7. Where refbrowse's time goes (its parts, measured on their own)",
        "",
        *profile_tables(result),
    ]


def agent_section(result: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    return [agent.BEGIN, *agent.render(result), agent.END]


SECTIONS: dict[str, Callable[[dict[str, Any], dict[str, Any]], list[str]]] = {
    "cold": cold_section,
    "warm": warm_section,
    "task": task_section,
    "snapshots": snapshots_section,
    "memory": memory_section,
    "flood": flood_section,
    "profile": profile_section,
    "agent": agent_section,
}


def footer(meta: dict[str, Any]) -> list[str]:
    out = ["## Sections: time taken and machine load (1-minute load average)", ""]
    out += ["| section | seconds | load at start | load at end |", "| --- | ---: | ---: | ---: |"]
    for name, row in meta.get("sections", {}).items():
        out.append(
            f"| {name} | {row['seconds']:.0f} | {row['load_at_start']:.2f} | {row['load_at_end']:.2f} |"
        )
    return [
        *out,
        "",
        *(f"- section {name} failed: {error}" for name, error in meta.get("errors", {}).items()),
    ]


def render(meta: dict[str, Any], results: dict[str, Any]) -> str:
    out = [*header(meta), "## Targets", "", *targets(results), ""]
    for name, section in SECTIONS.items():
        if name in results:
            out += [*section(results[name], meta), ""]
    return "\n".join(out + footer(meta)).rstrip() + "\n"
