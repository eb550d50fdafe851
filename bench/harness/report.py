"""bench/RESULTS.md from the sections' results: one table per section, targets first.

Times are shown in milliseconds (seconds for the task); a ratio is
refbrowse ÷ peer, taken run by run and summarised by its median, so below 1
means refbrowse is faster or smaller.
"""

from __future__ import annotations

import os
from typing import Any

from harness.context import OURS

NA = "n/a: command not available"


def ms(value: float | None, scale: float = 1000.0, digits: int = 0) -> str:
    return "–" if value is None else f"{value * scale:,.{digits}f}"


def ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}×"


def timing_rows(label: str, fig: dict[str, Any], scale: float, digits: int) -> list[str]:
    rows = []
    for name, stats in fig["summary"].items():
        if stats is None:
            rows.append(f"| {label} | {name} | {NA if name == OURS else 'n/a'} | | | | |")
            continue
        pair = fig["ratio"].get(name) or {}
        cells = [ms(stats[k], scale, digits) for k in ("min", "median", "max")]
        rows.append(
            f"| {label} | {name} | {stats['n']} | {' | '.join(cells)} | {ratio(pair.get('median'))} |"
        )
    return rows


def timing_table(
    figures: dict[str, Any], unit: str = "ms", scale: float = 1000.0, digits: int = 0
) -> list[str]:
    head = [
        f"| figure | tool | runs | min ({unit}) | median ({unit}) | max ({unit}) | refbrowse ÷ tool |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    body = [row for label, fig in figures.items() for row in timing_rows(label, fig, scale, digits)]
    return head + body


def snapshot_cell(cell: dict[str, Any] | None, key: str = "chars") -> str:
    if cell is None:
        return "–"
    if "n/a" in cell:
        return "n/a"
    if key != "chars":
        return f"{cell.get(key, 0):,}"
    return f"{cell['chars']:,} ({cell['actionable_refs']})"


def snapshot_table(pages: dict[str, Any], tools: list[str], key: str = "chars") -> list[str]:
    columns = [
        (t, kind)
        for t in tools
        for kind in ("interactive", "full")
        if t != "playwright-mcp" or kind == "full"
    ]
    titles = [f"{t} {'-i' if kind == 'interactive' else 'full'}" for t, kind in columns]
    head = ["| page | actionable elements | " + " | ".join(titles) + " |"]
    head.append("| --- | ---: |" + " ---: |" * len(columns))
    rows = []
    for path, row in pages.items():
        cells = [snapshot_cell((row.get(t) or {}).get(kind), key) for t, kind in columns]
        rows.append(f"| `{path}` | {row['actionable elements']} | " + " | ".join(cells) + " |")
    return head + rows


def memory_table(memory: dict[str, Any]) -> list[str]:
    rows = [
        "| tool | own processes | own peak RSS (MB) | of which (peak MB) | own RSS now (MB) |"
        " browser processes | browser PSS (MB) | browser RSS (MB) |",
        "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for name, row in memory["after the scripted task"].items():
        own, browser = row["own"], row["browser"]
        rows.append(
            f"| {name} | {own['processes']} | {own['peak_rss_mb']:.0f} | {split(row['own, by process'])} | "
            f"{own['rss_mb']:.0f} | "
            f"{browser['processes']} | {browser['pss_mb']:.0f} | {browser['rss_mb']:.0f} |"
        )
    return rows


def split(processes: list[dict[str, Any]]) -> str:
    """'python -m refbrowse.daemon 58 + node 138': which of a tool's processes weighs what."""
    parts = []
    for process in processes:
        words = str(process["command"]).split()
        name = os.path.basename(words[0]) if words else "?"
        if "-m" in words[:-1]:
            name += " -m " + words[words.index("-m") + 1]
        parts.append(f"{name} {process['peak_rss_mb']:.0f}")
    return " + ".join(parts)


def flood_table(flood: dict[str, Any]) -> list[str]:
    rows = [
        "| tool | open flooding tab (ms) | back to tab 1 (ms) | `url` before, median (ms) |"
        " `url` during, median (ms) | during, max (ms) | calls answered | own peak RSS (MB) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, row in flood.items():
        if not isinstance(row, dict):
            continue
        if "n/a" in row:
            rows.append(f"| {name} | {' '.join(row['n/a'].split())[:160]} | | | | | | |")
            continue
        before, during = row["baseline url"], row["url during flood"]
        peak = max(row["own peak RSS, sampled (MB)"], row["own peak RSS, VmHWM (MB)"])
        rows.append(
            f"| {name} | {ms(row['open the flooding tab (s)'])} | {ms(row['switch back to tab 1 (s)'])} | "
            f"{ms(before['median'])} | "
            f"{ms(during['median'])} | {ms(during['max'])} | "
            f"{during['n']} | {peak:.0f} |"
        )
    return rows


def breakdown_table(per_command: dict[str, Any]) -> list[str]:
    rows = ["| tool | command | calls | median (ms) | median chars |", "| --- | --- | ---: | ---: | ---: |"]
    for tool, commands in per_command.items():
        for command, row in sorted(
            commands.items(), key=lambda item: -item[1]["median_ms"] * item[1]["calls"]
        ):
            rows.append(
                f"| {tool} | `{command}` | {row['calls']} | {row['median_ms']:.0f} "
                f"| {row['median_chars']:,.0f} |"
            )
    return rows


def profile_tables(profile: dict[str, Any]) -> list[str]:
    cli = profile["cli"]["summary"]
    rows = ["| part | median (ms) |", "| --- | ---: |"]
    for name in ("python -c pass", "browse url"):
        if cli.get(name):
            rows.append(f"| warm CLI: `{name}` | {cli[name]['median'] * 1000:.0f} |")
    for title in ("cold start steps (median ms)", "playwright calls on the warm page (median ms)"):
        for step, value in profile.get(title, {}).items():
            rows.append(f"| {title.split(' (')[0]}: {step} | {value:.0f} |")
    return rows


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
    for path, row in results.get("snapshots", {}).get("pages", {}).items():
        lines += _snapshot_targets(path, row)
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


def render(meta: dict[str, Any], results: dict[str, Any]) -> str:
    out = [*header(meta), "## Targets", "", *targets(results), ""]
    if "cold" in results:
        out += ["## 1. Cold start", "", *timing_table(results["cold"]), ""]
    if "warm" in results:
        out += ["## 2. Warm per-command latency", "", *timing_table(results["warm"]), ""]
    if "task" in results:
        task = results["task"]
        out += ["## 3. Scripted task (12 steps on the local shop)", ""]
        out += timing_table({"wall time": task["wall time"]}, "s", 1.0, 2)
        out += ["", *timing_table({"characters printed": task["characters printed"]}, "chars", 1.0, 0), ""]
        for name, chars in task.get("tool schema characters (tools/list)", {}).items():
            out.append(f"- {name}: `tools/list` schema, sent to the model once per session: {chars:,} chars")
        out += ["", "Where the task's time goes, per command (all runs):", ""]
        out += [*breakdown_table(task.get("per command", {})), ""]
    if "snapshots" in results:
        tools = [t for t in (OURS, "agent-browser", "playwright-mcp") if t in meta["tools"]]
        out += ["## 4. Snapshot size (characters, and actionable refs in brackets)", ""]
        out += [*snapshot_table(results["snapshots"]["pages"], tools), ""]
        out += ["The same, counting only the tree's lines (no header, footer or fence):", ""]
        out += [*snapshot_table(results["snapshots"]["pages"], tools, "tree_chars"), ""]
    if "memory" in results:
        out += ["## 5. Memory after the scripted task", "", *memory_table(results["memory"]), ""]
    if "flood" in results:
        flood = results["flood"]
        out += [f"## 6. Console flood ({flood['messages']:,} messages in tab 2, `url` on tab 1)", ""]
        out += [*flood_table(flood), ""]
    if "profile" in results:
        out += ["## 7. Where refbrowse's time goes (its parts, measured on their own)", ""]
        out += [*profile_tables(results["profile"]), ""]
    out += ["## Sections: time taken and machine load (1-minute load average)", ""]
    out += ["| section | seconds | load at start | load at end |", "| --- | ---: | ---: | ---: |"]
    for name, row in meta.get("sections", {}).items():
        out.append(
            f"| {name} | {row['seconds']:.0f} | {row['load_at_start']:.2f} | {row['load_at_end']:.2f} |"
        )
    out.append("")
    for name, error in meta.get("errors", {}).items():
        out.append(f"- section {name} failed: {error}")
    return "\n".join(out).rstrip() + "\n"
