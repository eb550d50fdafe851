"""Shared test fixtures: a real local HTTP server and `browse` run as a subprocess.

No browser is mocked. `site` serves tests/fixtures/ on 127.0.0.1 (port 0) and
takes per-test dynamic routes; `workspace` gives a directory with its own
daemon, stopped at teardown.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from refbrowse.daemon.reaper import descendants as _descendants

FIXTURES = Path(__file__).parent / "fixtures"
BROWSE = str(Path(sys.executable).parent / "browse")
CHROMIUM = "/usr/bin/chromium"

Route = Callable[["FixtureHandler"], None]

# A visible window needs a display: the session's own, or a private Xvfb the daemon starts.
needs_display = pytest.mark.skipif(
    not (os.environ.get("DISPLAY") or shutil.which("Xvfb")),
    reason="no DISPLAY and no Xvfb: a visible window cannot be made here (`make xvfb` installs Xvfb)",
)


class FixtureHandler(SimpleHTTPRequestHandler):
    routes: ClassVar[dict[str, Route]] = {}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, directory=str(FIXTURES), **kwargs)  # type: ignore[arg-type]

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _dispatch(self) -> bool:
        route = self.routes.get(self.path.split("?")[0])
        if route is None:
            return False
        route(self)
        return True

    def do_GET(self) -> None:
        if not self._dispatch():
            super().do_GET()

    def do_POST(self) -> None:
        if not self._dispatch():
            self.send_error(405)

    def reply(self, body: str, status: int = 200, headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, location: str, cookie: str = "") -> None:
        """A 303 to `location`, setting `cookie` (a Set-Cookie value) when given."""
        self.send_response(303)
        self.send_header("Location", location)
        if cookie:
            self.send_header("Set-Cookie", cookie)
        self.send_header("Content-Length", "0")
        self.end_headers()


@dataclass
class Site:
    server: ThreadingHTTPServer

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str = "/") -> str:
        return self.origin + path

    def route(self, path: str, fn: Route) -> str:
        FixtureHandler.routes[path] = fn
        return self.url(path)

    def page(self, path: str, html: str) -> str:
        """Serve `html` at `path` and return its URL."""
        return self.route(path, lambda h: h.reply(html))


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FixtureHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(server)
    server.shutdown()


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def json(self) -> dict[str, object]:
        data = json.loads(self.out)
        assert isinstance(data, dict)
        return data


class Workspace:
    """A directory with its own `.refbrowse/` and daemon."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / ".git").mkdir(parents=True, exist_ok=True)
        self.state_dir = root / ".refbrowse"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSE_")}

    def run(self, *args: str, input: str | None = None, timeout: float = 90, **env: str) -> Result:
        proc = subprocess.run(
            [BROWSE, *args],
            cwd=self.root,
            env={**self.env, **env},
            input=input,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def start(self, *args: str) -> subprocess.Popen[str]:
        """Start `browse ARGS` without waiting for it (stdout and stderr piped).

        It gets Ctrl-C as from a terminal even when the suite runs as a background job, whose
        processes inherit SIGINT ignored (and Python then never raises KeyboardInterrupt)."""
        return subprocess.Popen(
            [BROWSE, *args],
            cwd=self.root,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )

    def ok(self, *args: str, **kwargs: str) -> str:
        """Run a command that must succeed; return its stdout."""
        result = self.run(*args, **kwargs)  # type: ignore[arg-type]
        assert result.code == 0, f"browse {' '.join(args)} exited {result.code}: {result.err}"
        return result.out

    def daemon_info(self) -> dict[str, object]:
        data = json.loads((self.state_dir / "daemon.json").read_text())
        assert isinstance(data, dict)
        return data

    def stop(self) -> None:
        self.run("stop", timeout=60)


@pytest.fixture
def fresh_workspace(tmp_path: Path) -> Iterator[Workspace]:
    """A workspace of its own for one test (lifecycle tests)."""
    ws = Workspace(tmp_path / "ws")
    yield ws
    ws.stop()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """A workspace shared by a module's tests: one daemon start per module."""
    ws = Workspace(tmp_path_factory.mktemp("ws"))
    yield ws
    ws.stop()


def wait_for(check: Callable[[], bool], seconds: float = 20) -> bool:
    """Poll until `check` holds; the tests assert outcomes, never durations."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return check()


def strip_fence(text: str) -> str:
    """The content between the untrusted-content markers."""
    lines = text.strip().splitlines()
    assert lines[0].startswith("<<<untrusted page content from "), text
    assert lines[-1].startswith("<<<end untrusted page content nonce="), text
    return "\n".join(lines[1:-1])


def browser_pid(daemon_pid: int) -> int:
    """The main Chromium process under the daemon (not its renderers or helpers)."""
    for pid in _descendants(daemon_pid):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"chrom" in cmdline[0] and not any(arg.startswith(b"--type=") for arg in cmdline):
            return pid
    raise AssertionError(f"no browser process under daemon {daemon_pid}")


def home_with_chromium_profile(tmp_path_factory: pytest.TempPathFactory, visit: str) -> Path:
    """A home directory whose Chromium profile got its cookies from a real visit to `visit`."""
    home = tmp_path_factory.mktemp("home")
    profile = home / ".config" / "chromium"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", f"--user-data-dir={profile}", "--password-store=basic",
         "--dump-dom", visit],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert (profile / "Default" / "Cookies").exists()
    return home


@pytest.fixture(autouse=True)
def _fresh_routes() -> Iterator[None]:
    """Routes a test adds to the site go with it; those its module's fixtures added stay."""
    kept = dict(FixtureHandler.routes)
    yield
    FixtureHandler.routes.clear()
    FixtureHandler.routes.update(kept)


@pytest.hookimpl(tryfirst=True)  # before pytest's own tmp_path set-up reads the base folder
def pytest_configure(config: pytest.Config) -> None:
    """One temp folder for the run (TMPDIR), so that nothing the browsers leave stays in /tmp.

    Chromium and Playwright's driver make folders in the temp directory that only a clean exit
    removes, and the suite kills them on purpose. The daemons inherit TMPDIR, and pytest's
    `tmp_path` lies in it too, where the daemons let commands write. The names are short:
    Chromium's singleton socket lives in the temp directory, and a Unix socket's path is short.
    """
    if os.environ.get("REFBROWSE_SUITE_TMP"):  # a run inside a run keeps the outer one's
        return
    run_tmp = tempfile.mkdtemp(prefix="rb-")
    os.chmod(run_tmp, 0o755)  # as /tmp is to other users: the other-user tests make folders they must reach
    os.environ["TMPDIR"] = os.environ["REFBROWSE_SUITE_TMP"] = run_tmp
    tempfile.tempdir = None  # computed again from TMPDIR
    _home_of_the_run(run_tmp)
    if not config.option.basetemp:
        config.option.basetemp = os.path.join(run_tmp, "t")
    config.stash[_RUN_TMP] = run_tmp


def _home_of_the_run(run_tmp: str) -> None:
    """A home and XDG folders of the run's own: no test reads what the person running it installed.

    A skill installed with `skill install --user`, a vault, a profile's cookies: all live under
    $HOME or $XDG_*, and a test that found them would pass or fail by whose machine it ran on.
    Playwright's own browsers, the Browserless and Grid the suite installed and an X display's
    cookie stay where they are.
    """
    real_home = os.path.expanduser("~")
    real_cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(real_home, ".cache")
    os.environ.setdefault("PLAYWRIGHT_BROWSERS_PATH", os.path.join(real_home, ".cache", "ms-playwright"))
    # What `make browserless` and `make selenium-grid` installed for the suite, where they put it.
    os.environ.setdefault("BROWSERLESS_DIR", os.path.join(real_cache, "refbrowse", "browserless"))
    os.environ.setdefault("SELENIUM_GRID_DIR", os.path.join(real_cache, "refbrowse", "selenium-grid"))
    xauthority = os.path.join(real_home, ".Xauthority")
    if os.environ.get("DISPLAY") and os.path.exists(xauthority):
        os.environ.setdefault("XAUTHORITY", xauthority)
    home = os.path.join(run_tmp, "home")
    os.environ["HOME"] = home
    for name, below in _XDG_DIRS.items():
        os.environ[name] = os.path.join(home, below)
        os.makedirs(os.environ[name], mode=0o700, exist_ok=True)
    os.chmod(home, 0o755)  # as a home is to other users: the other-user tests reach into it


_XDG_DIRS = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CACHE_HOME": ".cache",
    "XDG_STATE_HOME": ".local/state",
    "XDG_RUNTIME_DIR": "run",
}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run_tmp = session.config.stash.get(_RUN_TMP, "")
    if not run_tmp:
        return
    if exitstatus == 0 or not os.path.isdir(os.path.join(run_tmp, "t")):
        shutil.rmtree(run_tmp, ignore_errors=True)
        return
    # A failed run keeps pytest's folders to look at; the browsers' leftovers go all the same.
    for entry in Path(run_tmp).iterdir():
        if entry.name != "t":
            shutil.rmtree(entry, ignore_errors=True)
    print(f"\nthe failed tests' files are in {run_tmp}")


_RUN_TMP = pytest.StashKey[str]()

# The modules that take longest, longest first. `make test` hands whole files to its workers in
# collection order: started first, these end while the short ones fill the other workers, instead
# of one long file running alone at the end.
LONG_MODULES = (
    "test_remote.py",
    "test_kills.py",
    "test_prepared_snapshot.py",
    "test_state.py",
    "test_headed.py",
    "test_storage_budget.py",
    "test_stuck_tabs.py",
    "test_hung_pages.py",
    "test_grid.py",
    "test_pool.py",
    "test_direct_input.py",
    "test_bounds.py",
    "test_log_bounds.py",
    "test_emulation.py",
    "test_lifecycle.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long modules first; every other test keeps its place (a stable sort)."""
    rank = {name: place for place, name in enumerate(LONG_MODULES)}
    last = len(rank)
    items.sort(key=lambda item: rank.get(item.path.name, last) if "e2e" in item.path.parts else last)
