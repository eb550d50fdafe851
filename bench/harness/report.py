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
    return (
        lines
        + _speed_targets(results)
        + _big_snapshot_targets(results)
        + _mcp_targets(results.get("task", {}))
    )


OURS_MCP = "refbrowse via MCP"
AB, PWCLI = "agent-browser", "playwright-cli"
_ACTIONS = ("click", "fill", "select", "check")

# (section, figure, whose figure, against which peer, at most this many times the peer's median)
_SPEED_TARGETS = [
    ("cold", "cold start", OURS, AB, 1.0),
    *(("warm", f"act-and-see {verb}", OURS, peer, 1.0) for verb in _ACTIONS for peer in (AB, PWCLI)),
    ("warm", "goto with refs", OURS, AB, 1.0),
    ("warm", "snapshot -i after goto", OURS, AB, 1.0),
    *(("warm", figure, OURS, AB, 2.0) for figure in ("url", "text", "evaluate js")),
    *(
        ("warm", figure, OURS_MCP, AB, 1.0)
        for figure in ("goto", "url", "text", "snapshot -i", *(f"{v} @ref" for v in _ACTIONS), "evaluate js")
    ),
    ("task", "wall time", OURS, AB, 1.0),
]

_LABELS = {"cold start": "cold start", "wall time": "scripted task, wall time"}
_PEER_LABELS = {
    AB: "agent-browser's",
    PWCLI: "@playwright/cli's",
}
_AND_SEE = {AB: " + `snapshot -i`", PWCLI: " + `snapshot`"}


def _speed_label(figure: str, ours: str, peer: str, limit: float) -> str:
    label = _LABELS.get(figure, f"`{figure}`")
    theirs = _PEER_LABELS[peer]
    if figure.startswith("act-and-see "):
        verb = figure.removeprefix("act-and-see ")
        label, theirs = f"act-and-see `{verb}` (report included)", f"{theirs} `{verb}`{_AND_SEE[peer]}"
    elif figure == "goto with refs":
        label, theirs = "`goto` with refs", f"{theirs} `open`{_AND_SEE[peer]}"
    if ours == OURS_MCP:
        label, theirs = f"MCP: {label}", f"{theirs} CLI"
    return f"{label} ≤ {limit:.1f}× {theirs}"


def _speed_targets(results: dict[str, Any]) -> list[str]:
    """refbrowse (CLI, and MCP for the warm verbs) against the peers' CLIs, figure by figure."""
    lines = []
    for section, figure, ours_name, peer, limit in _SPEED_TARGETS:
        fig = results.get(section, {}).get(figure)
        ours, theirs = median_of(fig, ours_name), median_of(fig, peer)
        if ours is None or not theirs:
            continue
        unit, scale, digits = ("s", 1, 2) if section == "task" else ("ms", 1000, 0)
        measured = f"{ours * scale:,.{digits}f} vs {theirs * scale:,.{digits}f} {unit}"
        lines.append(
            f"| {_speed_label(figure, ours_name, peer, limit)} | {measured} ({ours / theirs:.2f}×) "
            f"| {_yes(ours <= limit * theirs)} |"
        )
    return lines


def _big_snapshot_targets(results: dict[str, Any]) -> list[str]:
    """`snapshot -i` time on the big documents against agent-browser's (one sample per page)."""
    lines = []
    for path, row in results.get("snapshots", {}).get("pages", {}).items():
        if not path.startswith("/docs/"):
            continue
        ours = ((row.get(OURS) or {}).get("interactive") or {}).get("seconds")
        theirs = ((row.get(AB) or {}).get("interactive") or {}).get("seconds")
        if ours is None or not theirs:
            continue
        lines.append(
            f"| `{path}`: `snapshot -i` time ≤ 1.0× agent-browser's (one sample) "
            f"| {ours * 1000:,.0f} vs {theirs * 1000:,.0f} ms ({ours / theirs:.2f}×) "
            f"| {_yes(ours <= theirs)} |"
        )
    return lines


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
    tools = [t for t in (OURS, "agent-browser", "playwright-cli", "playwright-mcp") if t in meta["tools"]]
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
