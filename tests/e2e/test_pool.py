"""A real browser pool: Browserless from the npm registry, on this machine's Chromium.

`scripts/browserless.sh install` puts Browserless and a Node 24 in
$BROWSERLESS_DIR (default ~/.cache/refbrowse/browserless); these tests start it
with `scripts/browserless.sh start` and small limits, and drive it through
`BROWSE_CDP_URL` as a user would: several workspaces (each its own daemon and
pool session) and sessions at once, then a pool that refuses. Without the
install they skip and say how to get it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_remote import free_port

from conftest import Result, Site, Workspace, strip_fence

ROOT = Path(__file__).resolve().parent.parent.parent
INSTALL_DIR = Path(
    os.environ.get("BROWSERLESS_DIR")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "refbrowse" / "browserless"
)
TOKEN = "pool-token-5521"
CONCURRENT, QUEUED = 2, 1

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not (INSTALL_DIR / "node_modules" / "@browserless.io" / "browserless").is_dir(),
        reason=f"Browserless is not installed in {INSTALL_DIR}: run `make browserless` (~900 MB from npm)",
    ),
]

COUNTER = """<title>counter</title><button onclick="this.textContent = 'clicked ' + (++n)">count</button>
<script>let n = 0</script>"""


@dataclass
class Pool:
    port: int
    process: subprocess.Popen[bytes]

    def url(self, token: str = TOKEN) -> str:
        return f"ws://127.0.0.1:{self.port}?token={token}"

    def api(self, path: str) -> object:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}?token={TOKEN}", timeout=10) as reply:
            return json.loads(reply.read())

    def answers(self) -> bool:
        try:
            return "Browser" in str(self.api("/json/version"))
        except OSError:
            return False


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pool]:
    port = free_port()
    limits = {"PORT": str(port), "TOKEN": TOKEN, "CONCURRENT": str(CONCURRENT), "QUEUED": str(QUEUED)}
    env = {**os.environ, **limits, "TIMEOUT": "0", "DEBUG": "-*"}  # TIMEOUT=0: sessions have no time limit
    log = (tmp_path_factory.mktemp("pool") / "browserless.log").open("wb")
    process = subprocess.Popen(
        ["sh", str(ROOT / "scripts" / "browserless.sh"), "start"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    started = Pool(port, process)
    deadline = time.monotonic() + 120
    while not started.answers():
        assert process.poll() is None, f"Browserless exited: see {log.name}"
        assert time.monotonic() < deadline, "Browserless did not start within 120 s"
        time.sleep(0.5)
    yield started
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def pool_workspace(root: Path, url: str) -> Workspace:
    ws = Workspace(root)
    ws.env.update(BROWSE_CDP_URL=url, BROWSE_PERSIST="0")
    return ws


@pytest.fixture(scope="module")
def holders(pool: Pool, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Workspace]]:
    """As many workspaces as the pool runs at once: each daemon holds one of its browsers."""
    spaces = [pool_workspace(tmp_path_factory.mktemp(f"holder{n}"), pool.url()) for n in range(CONCURRENT)]
    yield spaces
    for ws in spaces:
        ws.stop()


def count_twice(ws: Workspace, url: str, session: str) -> str:
    ws.ok("--session", session, "goto", url)
    snap = ws.ok("--session", session, "snapshot", "-i")
    ref = re.search(r'button "count" (@e\d+)', snap)
    assert ref, snap
    ws.ok("--session", session, "click", ref.group(1))
    ws.ok("--session", session, "click", "button")
    return strip_fence(ws.ok("--session", session, "text", "button")).strip()


def test_several_workspaces_and_sessions_drive_the_pool_at_once(
    pool: Pool, holders: list[Workspace], site: Site
) -> None:
    url = site.page("/pool/counter", COUNTER)
    jobs = [(ws, session) for ws in holders for session in ("default", "second")]
    with ThreadPoolExecutor(len(jobs)) as run:
        counted = list(run.map(lambda job: count_twice(job[0], url, job[1]), jobs))
    assert counted == ["clicked 2"] * len(jobs), "each session kept its own page and count"
    sessions = pool.api("/sessions")  # one entry per page, each naming its browser
    assert isinstance(sessions, list)
    assert len({entry["browserId"] for entry in sessions}) == CONCURRENT, "one pool browser per workspace"
    status = holders[0].ok("status")
    assert f"mode: remote (cdp ws://127.0.0.1:{pool.port}?token=***)" in status and TOKEN not in status


def test_a_full_pool_a_queue_that_never_moves_and_a_bad_token_each_fail_at_once_with_what_to_do(
    pool: Pool, holders: list[Workspace], site: Site, tmp_path: Path
) -> None:
    url = site.page("/pool/plain", "<title>plain</title><p>plain")
    for ws in holders:
        ws.ok("goto", url)  # every browser of the pool is taken
    queued = pool_workspace(tmp_path / "queued", pool.url())
    refused = pool_workspace(tmp_path / "refused", pool.url())
    stranger = pool_workspace(tmp_path / "stranger", pool.url("not-the-token"))
    with ThreadPoolExecutor(1) as run:
        waiting = run.submit(queued.run, "goto", url, timeout=60)
        while not _queue_taken(pool) and not waiting.done():
            time.sleep(0.2)
        full = refused.run("goto", url, timeout=60)
        in_queue = waiting.result()
    bad_token = stranger.run("goto", url, timeout=60)
    fails_with(full, "is full: it refused a new browser (429", "CONCURRENT and QUEUED")
    fails_with(in_queue, "did not answer within 15 s (a pool that is full may be holding", "browse stop")
    fails_with(bad_token, "refused the token (401)", "check the token in BROWSE_CDP_URL")
    for said in (full, in_queue, bad_token):
        assert TOKEN not in said.err and "not-the-token" not in said.err


def _queue_taken(pool: Pool) -> bool:
    pressure = pool.api("/pressure")
    return isinstance(pressure, dict) and pressure["pressure"]["queued"] >= QUEUED


def fails_with(result: Result, error: str, hint: str) -> None:
    assert result.code == 3, result
    first, second = result.err.splitlines()[-2:]
    assert first.startswith("error: ") and error in first, result.err
    assert second.startswith("hint: ") and hint in second, result.err
