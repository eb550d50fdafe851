"""Trust: other local users, planted files, paths and hosts.

Each probe is tried a few times and counted held when nothing reached where it
must not: a planted `.refbrowse/` (its own user open to all, or another user's)
with a TCP squatter, as root and as a non-root user; symlinked state files; a
copy of a running workspace; another workspace's state directory; a private
key folder; a folder flipped to a symlink under screenshots; FIFOs; redirects
and a WebSocket past BROWSE_ALLOWED_HOSTS; a cookie-less client of the private
Xvfb.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from common import BROWSE, Site, Workspace

from refbrowse import __version__, protocol

NOBODY = 65534
SRC = str(Path(protocol.__file__).parent.parent)

Probe = Callable[[Site], tuple[str, int, int]]


def run() -> list[tuple[str, str, str]]:
    site = Site()
    rows = []
    for probe in PROBES:
        what, tried, held = probe(site)
        rows.append((what, str(tried), f"{held} / {tried}"))
    return rows


# the CLI and planted state


def _squatter(port: int, got: list[bytes], stop: threading.Event) -> threading.Thread:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(8)
    server.settimeout(0.2)

    def serve() -> None:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                conn, _ = server.accept()
                conn.settimeout(2)
                with contextlib.suppress(OSError):
                    got.append(conn.recv(65536) or b"(connected)")
                conn.close()
        server.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _plant(folder: Path, port: int) -> None:
    planted = folder / ".refbrowse"
    planted.mkdir(mode=0o777)
    planted.chmod(0o777)
    config = protocol.config_hash({name: "" for name in protocol.LAUNCH_ENV})
    info = {
        "pid": 1,
        "socket": "",
        "port": port,
        "token": "planted-token-0123456789",
        "started": 1,
        "version": __version__,
        "mode": "headless",
        "config": config,
        "state_dir": str(planted),
    }
    (planted / "daemon.json").write_text(json.dumps(info))
    if os.geteuid() == 0:
        for path in (planted, planted / "daemon.json"):
            os.chown(path, NOBODY, NOBODY)


def _browse_in(cwd: Path, *args: str, user: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSE_")}
    argv = [BROWSE, *args]
    if user:
        argv = [
            "runuser",
            "-u",
            user,
            "--",
            "env",
            f"PYTHONPATH={SRC}",
            "/usr/bin/python3",
            "-m",
            "refbrowse",
        ]
        argv += list(args)
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=90)


def planted_state(site: Site, user: str = "") -> tuple[str, int, int]:
    """A current-looking daemon.json with a TCP port, planted one folder up; the victim runs `status`."""
    held = tries = 0
    for _ in range(3):
        shared = Path(tempfile.mkdtemp(prefix="refbrowse-rel-shared-"))
        shared.chmod(0o1777)
        (shared / "proj").mkdir()
        if user:
            os.chown(shared / "proj", NOBODY, NOBODY)
        port, got, stop = _free_port(), [], threading.Event()
        thread = _squatter(port, got, stop)
        _plant(shared, port)
        result = _browse_in(shared / "proj", "status", user=user)
        time.sleep(0.3)
        stop.set()
        thread.join()
        tries += 1
        held += not got and "Traceback" not in result.stderr and "note: ignoring" in result.stderr
        if not user:
            _browse_in(shared / "proj", "stop")
        shutil.rmtree(shared, ignore_errors=True)
    who = f"as {user} (non-root)" if user else ("as root" if os.geteuid() == 0 else "as this user")
    return f"planted daemon.json with a TCP port one folder up, {who}: nothing sent", tries, held


def planted_state_non_root(site: Site) -> tuple[str, int, int]:
    if os.geteuid() != 0 or not os.path.exists("/usr/bin/python3"):
        return "planted daemon.json, as a non-root user (needs root to switch user)", 0, 0
    return planted_state(site, user="nobody")


def symlinked_state_files(site: Site) -> tuple[str, int, int]:
    ws = Workspace("trust-links")
    victim = ws.root.parent / f"{ws.root.name}-victim.txt"
    victim.write_text("precious\n")
    held = tries = 0
    try:
        ws.state_dir.mkdir(mode=0o700)
        for name in ("daemon.log", "daemon.lock", "start.lock", "daemon.json"):
            (ws.state_dir / name).unlink(missing_ok=True)
            (ws.state_dir / name).symlink_to(victim)
            result = ws.run("url")
            tries += 1
            held += victim.read_text() == "precious\n" and "Traceback" not in result.err
            (ws.state_dir / name).unlink()
    finally:
        ws.close()
        victim.unlink()
    return "state file planted as a symlink to another file: not written through", tries, held


def copied_workspace(site: Site) -> tuple[str, int, int]:
    held = tries = 0
    for n in range(3):
        ws = Workspace("trust-copy")
        copy = Path(str(ws.root) + "-copy")
        try:
            ws.run("goto", f"data:text/html,<title>original {n}</title>")
            subprocess.run(["cp", "-a", str(ws.root), str(copy)], check=True)
            _browse_in(copy, "goto", "data:text/html,<title>copy</title>")
            tries += 1
            held += ws.run("url").out.strip() == f"data:text/html,<title>original {n}</title>"
        finally:
            _browse_in(copy, "stop")
            shutil.rmtree(copy, ignore_errors=True)
            ws.close()
    return "`cp -a` of a running workspace: the copy drives its own browser", tries, held


def foreign_state_folder(site: Site) -> tuple[str, int, int]:
    if os.geteuid() != 0 or not os.path.exists("/usr/bin/python3"):
        return "another user's state folder (needs root to switch user)", 0, 0
    ws = Workspace("trust-foreign")
    held = tries = 0
    try:
        ws.root.chmod(0o755)
        ws.run("goto", "about:blank")
        for command in ("status", "url", "stop"):
            result = _browse_in(ws.root, command, user="nobody")
            tries += 1
            held += result.returncode == 3 and "belongs to another user" in result.stderr
            held -= "Traceback" in result.stderr or "no daemon" in result.stderr
    finally:
        ws.close()
    return "a non-root user in another user's workspace: a clear error, never 'no daemon'", tries, held


# paths


def other_state_dirs(site: Site) -> tuple[str, int, int]:
    ws = Workspace("trust-paths")
    other = ws.root / "other" / ".refbrowse"
    other.mkdir(parents=True, mode=0o700)
    (other / "daemon.json").write_text("{}")
    held = tries = 0
    try:
        ws.run("goto", site.page("/trust-upload", "<input type=file id=f>"))
        for args in (
            ("screenshot", str(other / "daemon.json")),
            ("snapshot", "-o", str(other / "x.png")),
            ("pdf", str(other / "x.pdf")),
            ("upload", "#f", str(other / "daemon.json")),
        ):
            result = ws.run(*args, "--allow-path", str(other))
            tries += 1
            held += result.code == 2 and (other / "daemon.json").read_text() == "{}"
    finally:
        ws.close()
    return "write or upload into another workspace's .refbrowse/ (even allowed)", tries, held


def private_keys(site: Site) -> tuple[str, int, int]:
    ws = Workspace("trust-keys")
    ws.env["HOME"] = str(ws.root)
    (ws.root / ".ssh").mkdir()
    (ws.root / ".ssh" / "id_rsa").write_text("key\n")
    held = tries = 0
    try:
        ws.run("goto", site.page("/trust-keys", "<input type=file id=f>"))
        for extra in ((), ("--allow-path", str(ws.root))):
            tries += 1
            held += ws.run("upload", "#f", str(ws.root / ".ssh" / "id_rsa"), *extra).code == 2
    finally:
        ws.close()
    return "upload ~/.ssh/id_rsa with the home folder as workspace (and allowed)", tries, held


def swap_loop(site: Site) -> tuple[str, int, int]:
    ws = Workspace("trust-swap")
    (ws.root / "tmp").mkdir()
    ws.env["TMPDIR"] = str(
        ws.root / "tmp"
    )  # so that the system temp folder, where `outside` is, is not allowed
    outside = Path(tempfile.mkdtemp(prefix="refbrowse-rel-outside-"))
    shots, stop = ws.root / "shots", threading.Event()

    def flip() -> None:
        while not stop.is_set():
            for make in (shots.mkdir, lambda: shots.symlink_to(outside)):
                with contextlib.suppress(OSError):
                    shots.unlink() if shots.is_symlink() else shutil.rmtree(shots)
                with contextlib.suppress(OSError):
                    make()
                time.sleep(0.002)

    ws.run("goto", site.page("/trust-swap", "<p>swap</p>"))
    flipper = threading.Thread(target=flip, daemon=True)
    flipper.start()
    try:
        for n in range(40):
            ws.run("screenshot", "--viewport", str(shots / f"{n}.png"))
    finally:
        stop.set()
        flipper.join()
        landed = len(list(outside.iterdir()))
        shutil.rmtree(outside, ignore_errors=True)
        ws.close()
    return "screenshots while a folder flips to a symlink outside", 40, 40 - landed


def fifos(site: Site) -> tuple[str, int, int]:
    ws = Workspace("trust-fifo")
    held = tries = 0
    try:
        ws.run("goto", site.page("/trust-fifo", "<input type=file id=f>"))
        for args in (("cookie-import",), ("eval",), ("upload", "#f"), ("screenshot",)):
            fifo = ws.root / f"fifo-{args[0]}"
            os.mkfifo(fifo)
            for _ in range(3):
                tries += 1
                held += ws.run(*args, str(fifo), timeout=30).code == 2
        tries += 1
        held += ws.run("screenshot", "--viewport", str(ws.root / "after.png"), timeout=30).code == 0
    finally:
        ws.close()
    return "FIFOs to cookie-import, eval, upload, screenshot (then a screenshot)", tries, held


# hosts and the display


def host_hops(site: Site) -> tuple[str, int, int]:
    from common import Handler, reply

    port = site.server.server_address[1]
    outside = f"http://localhost:{port}/trust-outside"
    site.route("/trust-outside", lambda h: reply(h, "outside"))

    def redirect(h: object) -> None:
        target = h.path.split("to=", 1)[1]  # type: ignore[attr-defined]
        h.send_response(302)  # type: ignore[attr-defined]
        h.send_header("Location", target)  # type: ignore[attr-defined]
        h.send_header("Content-Length", "0")  # type: ignore[attr-defined]
        h.end_headers()  # type: ignore[attr-defined]

    site.route("/trust-redir", redirect)
    page = site.page(
        "/trust-hops",
        f"<img src='/trust-redir?to={outside}?img'><a id=go href='/trust-redir?to={outside}?link'>go</a>"
        f"<script>try {{ new WebSocket('ws://localhost:{port}/trust-outside?ws') }} catch (e) {{}}</script>",
    )
    ws = Workspace("trust-hosts")
    env = {"BROWSE_ALLOWED_HOSTS": "127.0.0.1"}
    before = sum(hit.startswith("/trust-outside") for hit in Handler.hits)
    try:
        ws.run("goto", page, **env)
        ws.run("click", "#go", **env)
        ws.run("goto", site.url(f"/trust-redir?to={outside}?goto"), **env)
        ws.run("goto", page, **env)
    finally:
        ws.close()
    reached = sum(hit.startswith("/trust-outside") for hit in Handler.hits) - before
    return "redirect (goto, img, link) and WebSocket past BROWSE_ALLOWED_HOSTS", 4, 4 - min(reached, 4)


def private_display(site: Site) -> tuple[str, int, int]:
    if shutil.which("Xvfb") is None:
        return "a client without the cookie on the private Xvfb (no Xvfb here)", 0, 0
    ws = Workspace("trust-display")
    ws.env.pop("DISPLAY", None)
    held = 0
    try:
        ws.run("goto", "about:blank", BROWSE_HEADED="1")
        status = ws.run("status", BROWSE_HEADED="1").out
        found = re.search(r"display :(\d+)", status)
        display = found.group(1) if found else "none"
        sock = socket.socket(socket.AF_UNIX)
        sock.settimeout(10)
        sock.connect(f"/tmp/.X11-unix/X{display}")
        sock.sendall(struct.pack("<cxHHHHxx", b"l", 11, 0, 0, 0))
        held = sock.recv(1)[0] == 0
        sock.close()
    finally:
        ws.close()
    return "a client without the cookie on the private Xvfb", 1, int(held)


def malformed_flood(site: Site) -> tuple[str, int, int]:
    """Malformed requests over the Unix socket: the log keeps one line a while, never a traceback."""
    ws = Workspace("trust-flood")
    cases = (b"GARBAGE\r\n\r\n", b"POST /command HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
    sent = 500
    try:
        ws.run("goto", "about:blank")
        path = str(ws.state_dir / protocol.SOCKET_FILE)
        for n in range(sent):
            with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(5)
                sock.connect(path)
                sock.sendall(cases[n % 2])
                sock.recv(100)
        log = (ws.state_dir / "daemon.log").read_text()
        held = "Traceback" not in log and log.count("malformed or broken request") <= 5
    finally:
        ws.close()
    return f"{sent} malformed requests on the socket: no traceback, at most 5 log lines", 1, int(held)


def silent_connections(site: Site) -> tuple[str, int, int]:
    """Silent connections to the activity page's TCP port hold no more than the cap of descriptors."""
    ws = Workspace("trust-silent")
    held = 0
    opened = []
    try:
        link = ws.run("dashboard").out.splitlines()[0]
        port = int(link.split(":")[2].split("/")[0])
        pid = ws.daemon_pid() or 0
        for _ in range(1200):
            with contextlib.suppress(OSError):
                opened.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(1)
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        held = int(fds < 300 and ws.run("url").code == 0)
    finally:
        for sock in opened:
            sock.close()
        ws.close()
    return f"1,200 silent connections to the activity page: daemon fds {fds}, `url` still answers", 1, held


PROBES: list[Probe] = [
    planted_state,
    planted_state_non_root,
    foreign_state_folder,
    symlinked_state_files,
    copied_workspace,
    other_state_dirs,
    private_keys,
    swap_loop,
    fifos,
    host_hops,
    private_display,
    malformed_flood,
    silent_connections,
]

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    for row in run():
        print(row)
