"""Processes and their memory, read from /proc.

RSS counts shared pages once per process, which overstates a multi-process
browser; so the browser's figure is PSS (shared pages split between their
users), and the tool's own processes get their peak RSS (`VmHWM`) too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterable


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def parent_of(pid: int) -> int:
    stat = _read(f"/proc/{pid}/stat")
    # the command name may hold spaces and parentheses: fields start after the last ')'
    fields = stat.rsplit(")", 1)[-1].split()
    return int(fields[1]) if len(fields) > 1 else 0


def command_of(pid: int) -> str:
    return _read(f"/proc/{pid}/cmdline").replace("\0", " ").strip()


def all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def descendants(root: int) -> list[int]:
    """Every process below `root` (not `root` itself)."""
    children: dict[int, list[int]] = {}
    for pid in all_pids():
        children.setdefault(parent_of(pid), []).append(pid)
    found: list[int] = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def is_browser(pid: int) -> bool:
    cmd = command_of(pid)
    return "chromium" in cmd or "chrome" in cmd.split(" ", 1)[0]


def status_kb(pid: int, key: str) -> int:
    for line in _read(f"/proc/{pid}/status").splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def pss_kb(pid: int) -> int:
    for line in _read(f"/proc/{pid}/smaps_rollup").splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def memory_mb(pids: Iterable[int]) -> dict[str, float]:
    """Summed peak RSS, current RSS and PSS of a group of processes, in MB."""
    group = list(pids)
    return {
        "processes": len(group),
        "peak_rss_mb": sum(status_kb(p, "VmHWM") for p in group) / 1024,
        "rss_mb": sum(status_kb(p, "VmRSS") for p in group) / 1024,
        "pss_mb": sum(pss_kb(p) for p in group) / 1024,
    }


def each_process(pids: Iterable[int]) -> list[dict[str, object]]:
    """Per process: what it is and its peak and current RSS in MB (to say which part weighs what)."""
    return [
        {
            "pid": pid,
            "command": command_of(pid)[:120],
            "peak_rss_mb": status_kb(pid, "VmHWM") / 1024,
            "rss_mb": status_kb(pid, "VmRSS") / 1024,
        }
        for pid in pids
    ]


def alive(pid: int) -> bool:
    return bool(pid) and os.path.exists(f"/proc/{pid}") and "zombie" not in _read(f"/proc/{pid}/status")


def wait_gone(pids: Iterable[int], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    remaining = [p for p in pids if alive(p)]
    while remaining and time.monotonic() < deadline:
        time.sleep(0.02)
        remaining = [p for p in remaining if alive(p)]
    return not remaining


def end(pids: Iterable[int]) -> None:
    """SIGTERM, then SIGKILL, the processes a tool left behind (by pid: only ours)."""
    group = [p for p in pids if alive(p)]
    for pid in group:
        _signal(pid, signal.SIGTERM)
    if not wait_gone(group, 5.0):
        for pid in group:
            _signal(pid, signal.SIGKILL)
        wait_gone(group, 5.0)


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)
