"""Every class of hole the attack probes found, with how many of its end-to-end cases were tried and held.

Each class is proved by the tests that reproduce it (tests/e2e, a real Chromium,
another uid through `useradd`/`runuser` where one is needed): here they run
again, outside `make test`, and each case that passes is one that held. The
trust, hostile-page and load sections of this file add probes of their own.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "planted or foreign state folders, symlinked state files, a copied workspace (root and another uid)",
        ("test_trust.py",),
    ),
    ("the one-time dashboard link and the chat prompt kept from other users", ("test_local_users.py",)),
    (
        "the activity listener and the socket: malformed requests, half-sent heads, connection cap, log cap",
        ("test_log_bounds.py", "test_malformed_requests.py"),
    ),
    ("headed mode's private display", ("test_private_display.py",)),
    (
        "secrets in clear: argv (a password field's text refused), logs, the activity feed",
        ("test_secret_leaks.py", "test_secrets.py"),
    ),
    ("MCP: every chain step checked as a direct call; short calls answer", ("test_mcp_guard.py",)),
    ("a remote browser (`connect --cdp`) and the proxy", ("test_remote.py", "test_remote_workers.py")),
    ("paths: other workspaces' state, key folders, symlink swaps, FIFOs", ("test_paths.py",)),
    ("hosts: redirects and WebSockets past BROWSE_ALLOWED_HOSTS", ("test_hosts.py",)),
    (
        "saved state: a big IndexedDB, a slow restore, corrupt files",
        ("test_storage_budget.py", "test_corrupt_state.py"),
    ),
    ("what a page hands back (titles, js results); the driver", ("test_page_bounds.py", "test_driver.py")),
    (
        "hung pages: busy loops, busy cross-site frames, history floods, dialog loops, big reads",
        ("test_hung_pages.py", "test_stuck_tabs.py"),
    ),
    ("a damaged daemon.json or daemon.lock", ("test_daemon_file_anomalies.py",)),
    ("a second download started beside the one asked for", ("test_download_race.py",)),
    ("small edges: exit codes, odd file names and arguments", ("test_small_edges.py",)),
    (
        "extra headers for one origin at a redirect to another host (image, fetch, `location`, `goto`)",
        ("test_origin_headers.py",),
    ),
    (
        "`route`: an address in a query, a delay said of a request the host policy refuses",
        ("test_route_matching.py",),
    ),
    (
        "numbers past their range (a wheel of 1e308, huge coordinates, a port) by CLI, chain, socket",
        ("test_number_bounds.py",),
    ),
    (
        "WebRTC (STUN, TURN, peer candidates) past BROWSE_ALLOWED_HOSTS, launched and remote",
        ("test_webrtc_hosts.py",),
    ),
    (
        "the activity page's API: bodies not JSON objects, a session not a name; the chat agent stopped"
        " with its children when the page goes, its output bounded, no MCP token; one dashboard link page",
        ("test_chat_bounds.py",),
    ),
    (
        "a remote browser's worker guard that cannot work (link silent, garbage, closed, 60 MB, dropped)",
        ("test_remote_guard.py",),
    ),
    (
        "the clipboard between sessions: reads, pastes, copies, keys held down, a page's own copy, pages"
        " polling it; clipboard-read granted for our command only, so a polling page does not hold goto",
        ("test_clipboard_sessions.py", "test_clipboard_native.py"),
    ),
    ("a stopped Playwright driver: said to be the driver, never the page", ("test_driver_stopped.py",)),
    (
        "recordings: written by the daemon at stop (no symlink, no swapped folder), bounded (HAR, trace,"
        " profile, video; bodies without a length counted), limits said",
        ("test_recording_files.py",),
    ),
    (
        "credential files by name, the home folder as a workspace, file:// to state; FIFOs as state files",
        ("test_credential_files.py", "test_state_fifos.py"),
    ),
)

FAILING: dict[tuple[str, ...], list[str]] = {}  # the cases of each class that did not hold, by name
_COUNT = re.compile(r"(\d+) (passed|failed|error|errors|skipped|xfailed|xpassed)")


def _counts(files: tuple[str, ...]) -> dict[str, int]:
    paths = [str(ROOT / "tests" / "e2e" / f) for f in files]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("BROWSE_")},
    )
    lines = done.stdout.strip().splitlines()
    last = (lines or [""])[-1]
    FAILING[files] = [line.split("::", 1)[-1].split(" - ")[0] for line in lines if line.startswith("FAILED ")]
    counts: dict[str, int] = {}
    for number, kind in _COUNT.findall(last):
        counts[kind.rstrip("s") if kind == "errors" else kind] = int(number)
    return counts


def run() -> list[tuple[str, str, str, str]]:
    rows = []
    for title, files in CLASSES:
        counts = _counts(files)
        held = counts.get("passed", 0)
        tried = held + counts.get("failed", 0) + counts.get("error", 0)
        skipped = counts.get("skipped", 0)
        note = ", ".join(
            [f"{skipped} skipped"] * bool(skipped) + [f"failed: {name}" for name in FAILING[files]]
        )
        rows.append(
            (title, ", ".join(files), str(tried), f"{held} / {tried}" + (f" ({note})" if note else ""))
        )
    return rows
