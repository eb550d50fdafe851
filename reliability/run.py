"""`make reliability`: run every section of the reliability suite and write RELIABILITY.md.

Sections: races, fuzzing, hostile pages, kills, secrets, trust, files, classes, load (one module each).
Not part of `make test`: it takes minutes and loads the machine on purpose.
`python reliability/run.py SECTION...` runs only those sections and prints
their tables without writing the file.
"""

from __future__ import annotations

import importlib
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

SECTIONS = {
    "races": ("Races", ("what", "figure")),
    "fuzz": ("Fuzzing", ("what", "figure")),
    "hostile": (
        "Hostile pages",
        ("page", "time to recover", "what happened", "peak MB daemon / driver / chromium"),
    ),
    "kills": ("Kills (SIGKILL mid-command)", ("killed", "result", "time")),
    "secrets": ("Secrets", ("secret", "occurrences")),
    "trust": ("Trust: other local users, planted files, paths and hosts", ("probe", "tried", "held")),
    "files": ("Files: recordings, credentials, state files, file:// URLs", ("probe", "tried", "held")),
    "classes": (
        "Every class of hole, tried and held (its end-to-end cases run again)",
        ("class", "cases", "tried", "held"),
    ),
    "load": (
        "Load: 20 sessions for minutes, memory over time and per 1,000 commands",
        ("time", "commands", "daemon MB", "driver MB", "chromium MB"),
    ),
}


VAULT_AND_CONSENT = """## Logins, recordings and consent (held by end-to-end tests, not rerun here)

- A password typed as a secret (`fill SEL -`, `type -`, into a password field or one named like it, or
  filled by `auth login`) is in no HAR, trace or recorded test: every file is searched byte by byte,
  zip members too, for its raw, URL-encoded and JSON-escaped spellings (test_recording_secrets.py,
  test_vault.py). A HAR has no cookie or Authorization value unless `har start --secrets`. Recordings
  are written mode 0600; `har start` without a path writes into `.refbrowse/recordings/`, never the
  system temp folder.
- The vault: no plaintext of a saved password or user name on disk; store 0600 in a 0700 folder outside
  the workspace, key in the OS keyring or a 0600 file in the user's config folder; `nobody` reads
  neither the store nor the key, even with their folders opened to passers-by (a file of 0644 beside
  them is read); a vault its key cannot open (another key, a damaged file, the keyring's entry gone)
  is set aside with one line and a next step, never a traceback; a named keyring (keyrings.alt's file
  backend) holds the key and locks the store, the same backend unnamed is not used; the password
  never travels in argv (test_vault_at_rest.py).
- `auth login` fills one-step and two-step forms and a TOTP code (RFC 6238 test values,
  test_totp.py), and fills nothing on a page of another origin, a redirect's included: the server sees
  no post (test_vault.py). After a login the password is in none of `forms`, `html`, `storage`,
  `network`, `console`, `snapshot`, nor in any file of the state folder (daemon.log included).
- With `BROWSE_CONFIRM`, a delete button, a form posting to another origin, a download link, a chain's
  step and a page tool its page marks consequential do not run (the server sees nothing) and exit 5
  with an id; `confirm ID` runs them as held, refused when the target changed; `deny ID` and expiry
  drop them; a person approves or denies on the activity page at phone width, and the agent's next
  command carries the answer; an MCP client with elicitation asks its person (the official SDK
  client in its default mode, through InputRequiredResult, and in legacy mode, through the
  2025-06-18 back-channel: yes runs it, no drops it, nothing is left held), one without gets the id
  (test_consent.py, test_consent_tools.py). Off by default.
- `fill` refuses a password field's text given in argv (exit 2, the error names `-` and the vault),
  before any field of the call is set; `--allow-argv-secret` types it, with a hint (test_secret_leaks.py,
  and the secrets table above).
"""

# Held, but not rerun by `make reliability` (its probe runs for half an hour).
MEASURED_BY_HAND = """## Held, measured by hand

- The daemon's memory for a long-lived tab's requests is bounded: it climbs to Playwright's caps and
  stays there. Playwright's driver keeps at most 10,000 objects of a kind (Request, Response, Route, ...)
  per connection and disposes of the oldest 1,000 past that, and the daemon's client then forgets them.
  With `BROWSE_MEMCENSUS=1` the daemon logs every 30 s, after a full collection, its live Playwright
  objects by class and how many of them the connection still holds (test_memcensus.py: a Request kept
  past its disposal counts alive but not held). One tab through 500 `goto`s of a page of 64 requests
  (32,000 requests): 3,264, 6,464 and 9,864 live Request objects, and as many Response, after 50, 100
  and 200 `goto`s, then between 9,064 and 9,864 of each at every sample from 250 to 500, every one still
  held by the connection (none kept past its disposal); the daemon's RSS rose 52 → 192 MB by 200
  `goto`s (about 14 kB a request and its response) and stayed at 192-195 MB to 500. With every request
  routed (`BROWSE_ALLOWED_HOSTS`, a Route each), 250 `goto`s of 124 requests (31,000): Request,
  Response and Route between 9,024 and 9,924 each from 75 `goto`s on, all held; RSS 54 → 204 MB at 75
  `goto`s, then 217-227 MB to 250. A third routed run (300 `goto`s, 37,200 requests) also counted the
  objects the collector tracks and the blocks Python's allocator holds: 563,806 and 2.01 M at 100
  `goto`s, 584,473 and 2.09 M at 200, 543,960 and 1.94 M at 250, 554,235 and 1.98 M at 300, about 52
  objects and 186 blocks a request, following the census and nothing else. Its RSS still crept, 216 →
  227 → 231 MB at 100, 200 and 300 `goto`s: not Python objects kept, so the allocator's (freed memory
  not given back, or C buffers). A fourth routed run went further, 450 `goto`s of 124 requests (55,800):
  RSS 154, 220, 228 MB at 50, 100, 150 `goto`s, then 228.1, 229.1, 230.7, 230.8, 230.9 and 232.8 MB at
  200 to 450, the census and the blocks cycling with the cap (9,124-9,924 Requests, 1.94-2.09 M
  blocks): about 0.13 kB a request past the cap. Since then the daemon tidies its heap when idle (a
  full collection, then glibc's `malloc_trim`, once 5 s have passed without a command; with the census
  on, each tidy logs the RSS before and after it and what glibc's allocator holds). Two more such runs
  of 450 routed `goto`s: RSS 213.7, 217.1, 218.8, 220.1, 220.3, 220.6 and 220.9 MB, and 214.7, 216.4,
  226.8, 220.6, 220.9, 221.3 and 221.6 MB, at 150 to 450 `goto`s: about 10 MB below the run before,
  and 0.8-1.0 MB more over the last 150 (18,600 requests: about 0.05 kB a request, from 0.13). Each
  tidy gave 3-8 MB back (229.0 → 223.7 MB at the third, 239.6 → 232.0 at the last), and glibc's own
  heap held 28.5-30.1 MB in use throughout: what still rises is in Python's own arenas (blocks freed
  between live ones), not objects kept and not the C allocator's slack. A run of 600 routed `goto`s
  (74,400 requests) with the census counting those arenas too shows them level off: 26 at the start,
  175 by about 250 `goto`s, and 175-177 at every sample after (the most ever held, 177, reached
  early and never passed over the last 27 minutes); RSS 221.3, 221.5, 221.8, 222.5, 221.5, 221.7 and
  222.0 MB at 300 to 600 `goto`s, 231.1-233.3 MB right after each tidy, and glibc's heap 28.9-30.2 MB
  in use: the daemon's memory past the caps is bounded (`reliability/gotoleak.py --images 120 --gotos
  600 --every 50 --routed`, 44 min).
  The caps are the driver connection's, one for the whole daemon, so the bound is for all its tabs and
  sessions together. The linear rise seen before with `BROWSE_TRACEMALLOC=1` (traced heap 27 → 118 MB
  over 134 `goto`s of 64 requests: 8,576 requests) was this climb, below the cap. Plain Playwright
  levels off the same way: 9,500, 9,600 and 9,700 live Request objects after 500, 600 and 700 `goto`s
  of a page of 21 requests, the same with a `request` listener added and removed around each `goto` as
  an action's watch does (`reliability/plain_requests.py --gotos 700 [--toggle]`). Closing a tab frees
  what its page held at once (traced heap 59.7 → 10.0 MB when a tab was reopened as stuck). The
  driver's RSS past the cap moved between 220 and 300 MB with no trend: collected late, not kept (in the
  load table it rose 116 → 228 MB over 1,400 `goto`s and fell to 143 MB by 1,600; plain Playwright does
  the same). Rerun (about half an hour on a busy machine): `.venv/bin/python reliability/gotoleak.py
  --images 60 --gotos 500 --every 50 [--routed]`.
"""

# What the sections above do not prove, said where their figures are read.
KNOWN_GAPS = """## Not held, or not measured

- Consent: the policy is read when the daemon starts; an agent that restarts the daemon without
  `BROWSE_CONFIRM` has no gate, and `browse confirm ID` may be run by the agent itself (the gate makes
  the step visible and answerable; it is no sandbox). Recordings leave out text typed as a secret
  since the daemon started; text typed from argv into a field the page does not mark as a password
  is not a secret. A video is the tab's pixels: what refbrowse draws over a page is the marker's
  word and @ref ids only (test_overlay_text.py), a password field shows dots, but a secret typed into
  a plain text field (a one-time code, `fill SEL -` into a non-password field) shows as the page
  draws it.
- A remote browser (`connect --cdp`, `BROWSE_CDP_URL`, `BROWSE_WS_ENDPOINT`) with `BROWSE_ALLOWED_HOSTS`:
  every redirect hop (of a `goto`, an image, a clicked link, a popup, a cross-site frame) and a page's or
  frame's WebSocket to another host are refused (test_remote.py). Reached by a DevTools URL (`connect
  --cdp`, `BROWSE_CDP_URL`), so are the WebSockets of its dedicated, nested, blob, shared and service
  workers and a page's WebSocketStream (test_remote_workers.py: the server outside sees no connection,
  the page sees a SecurityError, the one inside still connects); WebTransport gets the same guard
  (tried in Node only: no HTTP/3 server here). A Playwright server (`BROWSE_WS_ENDPOINT`) offers no
  DevTools connection of the daemon's own: its pages' WebSocketStream and WebTransport get the guard as
  an init script (test_remote_workers.py: refused outside, connected inside), and the first command
  says that its workers' WebSockets are not held. Not held: those workers' WebSockets, which still reach
  any host; and a remote browser's resolver flags are not the daemon's to set (a browser the daemon
  launches resolves no other host at all). While the daemon is
  connected, the remote browser's other tabs and workers, not the daemon's, are held to the policy too.

- Recordings: a trace (`trace start`) has no limit of its own (Playwright writes it to disk as it
  goes; `trace stop` streams it into place). A HAR's byte limit counts request bodies and the
  responses' Content-Length (a chunked response without one is not counted). `har stop` parses the
  capped file whole to take secrets out: 5,000 entries of a fetch flood are 16.9 MB and the daemon's
  peak was 336-393 MB in the runs that wrote it. A profile of a busy page at the default limit
  (100 MB) did not fill Chromium's buffer in 30 s (67 MB); with a small limit the loss is said
  (test_recording_files.py).
"""


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def machine() -> str:
    cpus = os.cpu_count()
    mem = next(
        (
            line.split()[1]
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        "0",
    )
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    chromium = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip()
    return (
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · commit {commit} · {platform.platform()} · "
        f"{cpus} cores · {int(mem) // 1024 // 1024} GB RAM · load at start {load} · "
        f"Python {platform.python_version()} · {chromium}"
    )


def main(argv: list[str]) -> int:
    chosen = argv or list(SECTIONS)
    header = machine()
    parts = []
    for name in chosen:
        title, columns = SECTIONS[name]
        start = time.monotonic()
        print(f"== {title}", flush=True)
        rows = importlib.import_module(name).run()
        took = time.monotonic() - start
        part = f"## {title}\n\n{table(columns, rows)}\n\n({took:.0f} s)\n"
        print(part, flush=True)
        parts.append(part)
    if not argv:
        intro = (
            "# Reliability\n\nWritten by `make reliability` (reliability/run.py): real Chromium, "
            "real pages on 127.0.0.1, the `browse` CLI as an agent runs it. Figures from one run; "
            "rerun to refresh them.\n\n" + header + "\n\n"
        )
        written = [*parts, VAULT_AND_CONSENT, MEASURED_BY_HAND, KNOWN_GAPS]
        (HERE.parent / "RELIABILITY.md").write_text(intro + "\n".join(written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
