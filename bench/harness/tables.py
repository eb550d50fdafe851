"""The tables of RESULTS.md, one builder per kind of figure.

Times are shown in milliseconds (seconds for the task); a ratio is
refbrowse ÷ peer, taken run by run and summarised by its median.
"""

from __future__ import annotations

import os
from typing import Any

from harness.context import OURS

NA = "n/a: command not available"
NO_INTERACTIVE_SNAPSHOT = ("playwright-mcp", "playwright-cli")


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
        if t not in NO_INTERACTIVE_SNAPSHOT or kind == "full"
    ]
    titles = [f"{t} {'-i' if kind == 'interactive' else 'full'}" for t, kind in columns]
    head = ["| page | actionable elements | " + " | ".join(titles) + " |"]
    head.append("| --- | ---: |" + " ---: |" * len(columns))
    rows = []
    for path, row in pages.items():
        cells = [snapshot_cell((row.get(t) or {}).get(kind), key) for t, kind in columns]
        rows.append(f"| `{path}` | {row['actionable elements']} | " + " | ".join(cells) + " |")
    return head + rows


def share_table(pages: dict[str, Any], tools: list[str]) -> list[str]:
    """Share of the page's actionable elements that got a ref (interactive snapshot where there is one)."""
    rows = [
        "| page | actionable elements | " + " | ".join(tools) + " |",
        "| --- | ---: |" + " ---: |" * len(tools),
    ]
    for path, row in pages.items():
        total = row["actionable elements"] or 0
        cells = []
        for tool in tools:
            entry = row.get(tool) or {}
            cell = entry.get("interactive") or entry.get("full") or {}
            refs = cell.get("actionable_refs")
            cells.append("–" if refs is None or not total else f"{100 * refs / total:.0f}% ({refs})")
        rows.append(f"| `{path}` | {total} | " + " | ".join(cells) + " |")
    return rows


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
    titles = (
        "daemon side of warm commands (median ms)",
        "cold start steps (median ms)",
        "playwright calls on the warm page (median ms)",
    )
    for title in titles:
        for step, value in profile.get(title, {}).items():
            rows.append(f"| {title.split(' (')[0]}: {step} | {value:.0f} |")
    return rows
