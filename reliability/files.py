"""Files: recordings on disk and their bounds, credential files, state files, file:// URLs.

Each probe is tried a few times and counted held when nothing reached where it
must not: a HAR's path turned into a symlink (also another user's, in a 1777
folder) or its folder swapped between `har start` and `har stop`; a page
firing fetches as fast as it can during `har start`, and a long profile of a
busy page (file sizes and the daemon's and driver's memory); hostile session
names in `record`'s test; `goto --allow-file` and a page's own navigations to
another workspace's state directory; credential files with the home folder
as the workspace; a run in the home folder; a FIFO as the saved state file.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from common import Site, Workspace, peak_memory, reply, roles, rss_mb

NOBODY = 65534
TOKEN = "TOKEN-OF-ANOTHER-DAEMON-5c1e"
HOSTILE_NAMES = (
    'x"""\nimport os; os.system("id")\n"""',
    "back\\slash",
    "quote\"'",
    "line\nbreak",
    "caf\u00e9 \u202e",
)
CREDENTIALS = (".netrc", ".git-credentials", ".config/gh/hosts.yml", ".claude/.credentials.json", ".pgpass")
BUSY = """<div id=box style="width:600px;height:400px"></div><script>
let n = 0;
(function paint() {
  box.style.background = `hsl(${n++ % 360}, 80%, 50%)`;
  box.textContent = Math.random().toString(36).repeat(20);
  requestAnimationFrame(paint);
})();
</script>"""
FLOOD = """<script>
let done = 0;
async function worker(until) {
  while (done < %d && Date.now() < until) { done++; await fetch('/files-item?' + done).then(r => r.text()); }
}
window.flood = seconds => Promise.all([...Array(50)].map(() => worker(Date.now() + seconds * 1000)));
</script>"""


def run() -> list[tuple[str, str, str]]:
    site = Site()
    site.route("/files-item", lambda h: reply(h, "ok"))
    rows = []
    for probe in PROBES:
        what, tried, held = probe(site)
        rows.append((what, str(tried), f"{held} / {tried}"))
    return rows


# recordings


def har_symlinks(site: Site) -> tuple[str, int, int]:
    ws = Workspace("files-har")
    outside = Path(tempfile.mkdtemp(prefix="refbrowse-rel-outside-"))
    canary = outside / "canary"
    canary.write_text("canary\n")
    held = tries = 0
    try:
        ws.run("goto", site.page("/files-har", "<p>har</p>"))
        for n in range(3):
            tries += 2
            ws.run("har", "start", f"h{n}.har")
            ws.run("goto", site.url(f"/files-har?{n}"))
            (ws.root / f"h{n}.har").symlink_to(canary)
            held += ws.run("har", "stop").code == 2 and canary.read_text() == "canary\n"
            (ws.root / f"d{n}").mkdir()
            ws.run("har", "start", f"d{n}/x.har")
            shutil.rmtree(ws.root / f"d{n}")
            (ws.root / f"d{n}").symlink_to(outside)
            held += ws.run("har", "stop").code == 2 and sorted(p.name for p in outside.iterdir()) == [
                "canary"
            ]
    finally:
        shutil.rmtree(outside, ignore_errors=True)
        ws.close()
    return "a HAR's path or folder turned into a symlink between har start and har stop", tries, held


def har_other_users_symlink(site: Site) -> tuple[str, int, int]:
    if os.geteuid() != 0:
        return "another user's symlink in a 1777 folder as the HAR (needs root)", 0, 0
    ws = Workspace("files-1777")
    shared = Path(tempfile.mkdtemp(prefix="refbrowse-rel-shared-"))
    shared.chmod(0o1777)
    canary = Path(tempfile.mkdtemp(prefix="refbrowse-rel-canary-")) / "canary"
    canary.write_text("canary\n")
    held = tries = 0
    try:
        ws.run("goto", site.page("/files-1777", "<p>shared</p>"))
        for n in range(3):
            tries += 1
            ws.run("har", "start", str(shared / f"{n}.har"))
            (shared / f"{n}.har").symlink_to(canary)
            os.lchown(shared / f"{n}.har", NOBODY, NOBODY)
            result = ws.run("har", "stop")
            held += result.code == 2 and canary.read_text() == "canary\n"
    finally:
        shutil.rmtree(shared, ignore_errors=True)
        shutil.rmtree(canary.parent, ignore_errors=True)
        ws.close()
    return "as root, another user's symlink in a 1777 folder as the HAR: nothing written through", tries, held


def har_flood(site: Site) -> tuple[str, int, int]:
    """Up to 100,000 fetches as fast as the page goes for 100 s during `har start`, default limits;
    then, the page quiet, `har stop`: the memory it takes while it writes, and what is left after."""
    ws = Workspace("files-flood")
    figures = ""
    held = 0
    try:
        ws.run("goto", site.page("/files-flood", FLOOD % 100_000))
        pid = ws.daemon_pid()
        with peak_memory(pid) as flood_peak:
            ws.run("har", "start", "flood.har")
            flooded = ws.run("js", "flood(100); 1")  # not awaited: the page works on for 100 s
            time.sleep(100)  # reading `done` meanwhile would wait behind the flood
            ws.run("js", "done", timeout=300)  # answered once the page has stopped fetching
        quiet = _memory(pid)
        with peak_memory(pid) as peak:
            stop, tries = ws.run("har", "stop", timeout=300), 1
            while stop.code == 4 and tries < 8:  # a stop given up at its timeout goes on; the next waits
                stop, tries = ws.run("har", "stop", timeout=300), tries + 1
        after = _memory(pid)
        time.sleep(35)  # the daemon tidies its heap once idle (every 30 s at most)
        later = _memory(pid)
        path = ws.root / "flood.har"
        size = path.stat().st_size / 1e6 if path.exists() else 0.0
        entries = len(json.loads(path.read_text())["log"]["entries"]) if path.exists() else 0
        said = (stop.out + stop.err).strip().splitlines()
        told = [line for line in said if "not recorded" in line]
        left = told[0] if told else f"exit {stop.code}: {' '.join(said)[:200]}"
        held = int(flooded.code == 0 and stop.code == 0 and entries <= 5_000 and "not recorded" in stop.out)
        figures = (
            f"{entries:,} entries, {size:.1f} MB, `har stop` x{tries}; "
            f"{left.split(': ', 1)[-1]}; MB daemon / driver: peak in the flood "
            f"{flood_peak.mb['daemon']:.0f} / {flood_peak.mb['driver']:.0f}, quiet before stop "
            f"{quiet['daemon']:.0f} / {quiet['driver']:.0f}, peak in stop "
            f"{peak.mb['daemon']:.0f} / {peak.mb['driver']:.0f}, after stop "
            f"{after['daemon']:.0f} / {after['driver']:.0f}, "
            f"35 s later {later['daemon']:.0f} / {later['driver']:.0f}"
        )
    finally:
        ws.close()
    return f"a page fetching as fast as it can for 100 s during har start: {figures}", 1, held


def _memory(daemon: int | None) -> dict[str, float]:
    return {role: sum(rss_mb(p) for p in pids) for role, pids in roles(daemon or 0).items()}


def long_profile(site: Site) -> tuple[str, int, int]:
    ws = Workspace("files-profile")
    figures, held = "", 0
    try:
        ws.run("goto", site.page("/files-busy", BUSY))
        pid = ws.daemon_pid()
        ws.run("profile", "start")
        time.sleep(30)
        with peak_memory(pid) as peak:
            stop = ws.run("profile", "stop", "busy.json", timeout=300)
        path = ws.root / "busy.json"
        size = path.stat().st_size / 1e6 if path.exists() else 0.0
        valid = path.exists() and "traceEvents" in json.loads(path.read_text())
        held = int(stop.code == 0 and valid and size < 250)
        lost = "buffer filled, said" if "left out" in stop.out else "buffer not filled"
        figures = f"{size:.0f} MB, {lost}; daemon peak while saving {peak.mb['daemon']:.0f} MB"
    finally:
        ws.close()
    return f"a 30 s profile of a page animating every frame: {figures}", 1, held


def long_trace(site: Site) -> tuple[str, int, int]:
    """A trace with screenshots and snapshots of a page animating every frame, loaded again and again,
    under a 5 MB limit: it stops there by itself and `trace stop` says so."""
    ws = Workspace("files-trace")
    ws.env["BROWSE_RECORDING_MAX_MB"] = "5"
    figures, held = "", 0
    try:
        url = site.page("/files-busy", BUSY)
        ws.run("goto", url)
        ws.run("trace", "start", "--screenshots", "--snapshots")
        started, loads = time.monotonic(), 0
        while "trace (stopped at its limit" not in ws.run("status").out and time.monotonic() - started < 120:
            ws.run("goto", url)
            loads += 1
        stop = ws.run("trace", "stop", "busy.zip", timeout=300)
        path = ws.root / "busy.zip"
        size = path.stat().st_size / 1e6 if path.exists() else 0.0
        said = "stopped at its limit of 5 MB" in stop.out
        held = int(stop.code == 0 and said and size < 10)
        figures = (
            f"stopped after {time.monotonic() - started:.0f} s and {loads} loads, {size:.1f} MB, said: {said}"
        )
    finally:
        ws.close()
    return f"a trace with screenshots and snapshots of a busy page, 5 MB limit: {figures}", 1, held


def confirm_rules(site: Site) -> tuple[str, int, int]:
    """BROWSE_CONFIRM_RULES naming a FIFO, a symlink, a 2 MB file: the daemon starts, says why it refused."""
    held = tries = 0
    for kind in ("fifo", "symlink", "big"):
        ws = Workspace(f"files-rules-{kind}")
        rules = ws.root / "rules.json"
        if kind == "fifo":
            os.mkfifo(rules, 0o600)
        elif kind == "symlink":
            (ws.root / "real.json").write_text('[{"name": "Wipe"}]')
            rules.symlink_to(ws.root / "real.json")
        else:
            rules.write_text(json.dumps([{"name": "x" * 100}] * 20_000))
        ws.env.update(BROWSE_CONFIRM="destructive", BROWSE_CONFIRM_RULES=str(rules))
        try:
            tries += 1
            went = ws.run("goto", site.page("/files-rules", "<p>rules</p>"), timeout=30)
            said = "BROWSE_CONFIRM_RULES was refused" in ws.run("status").out
            held += went.code == 0 and went.seconds < 20 and said
        finally:
            ws.close()
    return (
        "BROWSE_CONFIRM_RULES as a FIFO, a symlink, a 2 MB file: the daemon answers, status says why",
        tries,
        held,
    )


def record_names(site: Site) -> tuple[str, int, int]:
    ws = Workspace("files-record")
    held = tries = 0
    try:
        for name in HOSTILE_NAMES:
            tries += 1
            ws.run("--session", name, "record", "start")
            ws.run("--session", name, "goto", site.page("/files-record", "<p>r</p>"))
            done = ws.run("--session", name, "record", "stop", f"test_{tries}.py")
            with contextlib.suppress(SyntaxError, OSError):
                tree = ast.parse((ws.root / f"test_{tries}.py").read_text())
                doc = ast.get_docstring(tree, clean=False) or ""
                held += done.code == 0 and f"session {name} on" in doc
    finally:
        ws.close()
    return (
        "hostile session names in record's test (triple quotes, backslashes, newlines, unicode)",
        tries,
        held,
    )


# file:// URLs, credentials, the home folder, state files


def file_urls(site: Site) -> tuple[str, int, int]:
    ws = Workspace("files-urls")
    other = ws.root / "other" / ".refbrowse"
    other.mkdir(parents=True, mode=0o700)
    (other / "daemon.json").write_text(json.dumps({"token": TOKEN}))
    (ws.root / "link.html").write_text(f'<a id=go href="{(other / "daemon.json").as_uri()}">go</a>')
    held = tries = 0
    try:
        for target in (other / "daemon.json", other):
            tries += 1
            result = ws.run("goto", target.as_uri(), "--allow-file")
            held += result.code == 2 and TOKEN not in ws.run("text").out
        ws.env["BROWSE_ALLOW_FILE"] = "1"
        ws.run("stop")
        tries += 1
        ws.run("goto", (ws.root / "link.html").as_uri())
        ws.run("click", "#go")
        time.sleep(1)
        held += TOKEN not in ws.run("text").out + ws.run("url").out
    finally:
        ws.close()
    return (
        "file:// to another workspace's state (goto --allow-file, a link with BROWSE_ALLOW_FILE=1)",
        tries,
        held,
    )


def credentials(site: Site) -> tuple[str, int, int]:
    ws = Workspace("files-creds")
    ws.env.update(HOME=str(ws.root), BROWSE_STATE_DIR=str(ws.state_dir))
    for name in CREDENTIALS:
        (ws.root / name).parent.mkdir(parents=True, exist_ok=True)
        (ws.root / name).write_text("secret\n")
    held = tries = 0
    try:
        ws.run("goto", site.page("/files-creds", "<input type=file id=f>"))
        for name in CREDENTIALS:
            tries += 1
            held += ws.run("upload", "#f", str(ws.root / name), "--allow-path", str(ws.root)).code == 2
    finally:
        ws.close()
    return "upload ~/.netrc, ~/.git-credentials, gh, claude, pgpass with home as the workspace", tries, held


def home_run(site: Site) -> tuple[str, int, int]:
    ws = Workspace("files-home")
    home = ws.root
    (home / ".git").rmdir()  # a home folder is no project, as a person's is
    ws.env.update(HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state"))
    try:
        ws.run("goto", site.page("/files-home", "<p>home</p>"))
        held = int(not (home / ".refbrowse").exists())
    finally:
        ws.close()
    return "a run in the home folder does not make it the workspace", 1, held


def state_fifo(site: Site) -> tuple[str, int, int]:
    ws = Workspace("files-fifo")
    (ws.state_dir / "state").mkdir(parents=True, mode=0o700)
    os.mkfifo(ws.state_dir / "state" / "session-default.json", 0o600)
    held = tries = 0
    try:
        for _ in range(3):
            tries += 1
            result = ws.run("goto", site.page("/files-fifo", "<p>fifo</p>"), timeout=30)
            held += result.code == 0 and result.seconds < 20
    finally:
        ws.close()
    return "a FIFO as the saved state file: each command answers", tries, held


PROBES = [
    har_symlinks,
    har_other_users_symlink,
    har_flood,
    long_profile,
    long_trace,
    record_names,
    file_urls,
    credentials,
    home_run,
    state_fifo,
    confirm_rules,
]

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    chosen = [p for p in PROBES if not sys.argv[1:] or p.__name__ in sys.argv[1:]]
    site = Site()
    site.route("/files-item", lambda h: reply(h, "ok"))
    for probe in chosen:
        print(probe(site), flush=True)
