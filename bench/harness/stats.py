"""Timing, alternation and summaries: the one place numbers are reduced.

Every timed figure is a list of per-run samples. Tools are run in turn within
each run (A B C, then B C A, ...), so that machine drift and noise from other
work on this shared machine hit every tool alike; the ratio to a peer is taken
pair by pair (run i of refbrowse over run i of the peer), then summarised.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any


class NotAvailable(Exception):
    """The tool has no command for this measurement (yet): the figure is skipped, not failed."""


class ToolFailed(Exception):
    """The tool ran but did not do the work (non-zero exit, error result, wrong page)."""


def timed(step: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds one call took, and what it returned."""
    start = time.perf_counter()
    value = step()
    return time.perf_counter() - start, value


def summary(samples: Sequence[float]) -> dict[str, float | int] | None:
    """min / median / max (and count) of a list of samples; None when there are none."""
    if not samples:
        return None
    return {
        "n": len(samples),
        "min": min(samples),
        "median": statistics.median(samples),
        "max": max(samples),
    }


def pair_ratios(ours: Sequence[float | None], theirs: Sequence[float | None]) -> list[float]:
    """Run-by-run ratios ours/theirs, skipping runs where either side has no sample."""
    return [a / b for a, b in zip(ours, theirs, strict=False) if a is not None and b is not None and b > 0]


def rotated(names: Sequence[str], turn: int) -> list[str]:
    """The order of tools in one run: each run starts with the next tool."""
    if not names:
        return []
    shift = turn % len(names)
    return [*names[shift:], *names[:shift]]


Step = Callable[[str, int], float]


def alternate(names: Sequence[str], runs: int, step: Step) -> dict[str, list[float | None]]:
    """Run `step(tool, run)` for every tool in every run, in rotated order.

    A step that raises `NotAvailable` marks the tool as lacking the command: it
    is not tried again. A `ToolFailed` leaves a hole (None) for that run, so
    that pair-by-pair ratios stay aligned.
    """
    samples: dict[str, list[float | None]] = {name: [] for name in names}
    missing: set[str] = set()
    for turn in range(runs):
        for name in rotated(names, turn):
            if name in missing:
                continue
            try:
                samples[name].append(step(name, turn))
            except NotAvailable:
                missing.add(name)
            except ToolFailed as exc:
                print(f"    {name} run {turn}: {exc}", flush=True)
                samples[name].append(None)
    for name in missing:
        samples[name] = []
    return samples


def present(samples: Sequence[float | None]) -> list[float]:
    return [s for s in samples if s is not None]


def figure(samples: dict[str, list[float | None]], ours: str) -> dict[str, Any]:
    """Summaries of every tool, and ratios of `ours` to each peer, ready for JSON."""
    out: dict[str, Any] = {"samples": samples, "summary": {}, "ratio": {}}
    for name, values in samples.items():
        out["summary"][name] = summary(present(values))
    for name, values in samples.items():
        if name != ours and samples.get(ours):
            out["ratio"][name] = summary(pair_ratios(samples[ours], values))
    return out
