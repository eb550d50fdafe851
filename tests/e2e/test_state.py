"""Logins that survive: persisted state across stop and SIGKILL (a lost Chromium: test_kills); named states.

A small login app runs on the test server: a form POSTs a user name, the server
answers with an HttpOnly session cookie, and /st/account greets only a request
that carries a live session.
"""

from __future__ import annotations

import os
import secrets
import signal
import stat
import time
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from conftest import FixtureHandler, Site, Workspace, strip_fence
from killing import held_route

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SESSIONS: dict[str, str] = {}

LOGIN_FORM = """<form method=post action=/st/login>
<input name=user><button>Log in</button></form>"""


def _login(h: FixtureHandler) -> None:
    length = int(h.headers.get("Content-Length") or 0)
    user = parse_qs(h.rfile.read(length).decode()).get("user", ["?"])[0]
    token = secrets.token_hex(8)
    SESSIONS[token] = user
    h.reply("", 303, {"Location": "/st/account", "Set-Cookie": f"sid={token}; Path=/; HttpOnly"})


def _account(h: FixtureHandler) -> None:
    pairs = (part.strip().split("=", 1) for part in (h.headers.get("Cookie") or "").split(";"))
    cookies = dict(pair for pair in pairs if len(pair) == 2)
    user = SESSIONS.get(cookies.get("sid", ""))
    h.reply(f"<h1>Welcome {user}</h1>" if user else "<h1>Please log in</h1>")


@pytest.fixture(scope="module")
def app(site: Site) -> Site:
    site.route("/st/login", lambda h: _login(h) if h.command == "POST" else h.reply(LOGIN_FORM))
    site.route("/st/account", _account)
    return site


def log_in(ws: Workspace, app: Site, user: str) -> None:
    """POST the login form from the page; the browser keeps the session cookie it gets back."""
    ws.ok("goto", app.url("/st/login"))
    ws.ok(
        "js",
        f"""const fields = new FormData(document.forms[0]); fields.set('user', '{user}');
        await fetch(document.forms[0].action, {{method: 'POST', body: new URLSearchParams(fields)}});""",
    )
    assert visit_account(ws, app) == f"Welcome {user}"


def greeting(ws: Workspace) -> str:
    return strip_fence(ws.ok("text", "h1")).strip()


def visit_account(ws: Workspace, app: Site) -> str:
    ws.ok("goto", app.url("/st/account"))
    return greeting(ws)


def state_line(ws: Workspace) -> str:
    return next(line for line in ws.ok("status").splitlines() if line.startswith("state:"))


def wait_until_saved(ws: Workspace) -> str:
    """Poll `status` until the daemon says the latest changes are on disk."""
    deadline = time.monotonic() + 30
    line = state_line(ws)
    while not ("saved" in line and "up to date" in line):
        assert time.monotonic() < deadline, f"state never saved: {line}"
        time.sleep(0.1)
        line = state_line(ws)
    return line


def wait_for_death(pid: int) -> None:
    deadline = time.monotonic() + 60
    while Path(f"/proc/{pid}").exists() and "zombie" not in _proc_state(pid):
        assert time.monotonic() < deadline, f"process {pid} did not exit"
        time.sleep(0.1)


def _proc_state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].lower()
    except (OSError, IndexError):
        return "zombie"


# persistence


def test_a_login_survives_browse_stop(fresh_workspace: Workspace, app: Site) -> None:
    log_in(fresh_workspace, app, "alice")
    fresh_workspace.ok("stop")
    assert visit_account(fresh_workspace, app) == "Welcome alice"


def test_a_login_survives_sigkill_of_the_daemon(fresh_workspace: Workspace, app: Site) -> None:
    log_in(fresh_workspace, app, "bob")
    wait_until_saved(fresh_workspace)
    pid = int(str(fresh_workspace.daemon_info()["pid"]))
    os.kill(pid, signal.SIGKILL)
    wait_for_death(pid)
    assert visit_account(fresh_workspace, app) == "Welcome bob"


def test_status_says_when_state_was_saved(workspace: Workspace, app: Site) -> None:
    workspace.ok("goto", app.url("/st/account"))
    line = wait_until_saved(workspace)
    assert str(workspace.state_dir / "state") in line


def test_local_storage_and_indexeddb_survive_a_restart(fresh_workspace: Workspace, app: Site) -> None:
    fresh_workspace.ok("goto", app.url("/st/account"))
    fresh_workspace.ok(
        "js",
        """localStorage.setItem('theme', 'dark');
        await new Promise((ok, fail) => {
          const open = indexedDB.open('notes', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('n');
          open.onsuccess = () => {
            const tx = open.result.transaction('n', 'readwrite');
            tx.objectStore('n').put('buy milk', 'todo');
            tx.oncomplete = ok; tx.onerror = fail;
          };
        });""",
    )
    fresh_workspace.ok("stop")
    fresh_workspace.ok("goto", app.url("/st/account"))
    out = fresh_workspace.ok(
        "js",
        "await new Promise((ok) => { const open = indexedDB.open('notes', 1);"
        " open.onsuccess = () => { const get = open.result.transaction('n').objectStore('n').get('todo');"
        " get.onsuccess = () => ok(localStorage.getItem('theme') + ' / ' + get.result); }; })",
    )
    assert "dark / buy milk" in out


def test_a_stop_while_a_page_hangs_loading_still_saves_its_site_storage(
    fresh_workspace: Workspace, app: Site
) -> None:
    # A tab left on a navigation whose server never answers kept the last full save from reading the
    # IndexedDB sizes (its DevTools session never opened): `stop` waited 10 s and saved nothing, and
    # what the site kept in localStorage since the last full save was lost.
    fresh_workspace.ok("goto", app.url("/st/account"))
    fresh_workspace.ok("js", "localStorage.setItem('draft', 'kept'); 'set'")
    held = held_route(app, "/st/never")
    assert fresh_workspace.run("--timeout", "1500", "goto", held.url).code != 0
    fresh_workspace.ok("stop")
    held.released.set()
    fresh_workspace.ok("goto", app.url("/st/account"))
    assert "kept" in fresh_workspace.ok("js", "localStorage.getItem('draft')")


def test_the_state_file_is_private(workspace: Workspace, app: Site) -> None:
    log_in(workspace, app, "dave")
    wait_until_saved(workspace)
    folder = workspace.state_dir / "state"
    files = list(folder.glob("session-*.json"))
    assert [f.name for f in files] == ["session-default.json"]
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_browse_persist_0_forgets_the_login_at_stop(fresh_workspace: Workspace, app: Site) -> None:
    fresh_workspace.env["BROWSE_PERSIST"] = "0"
    log_in(fresh_workspace, app, "erin")
    assert "not persisted" in state_line(fresh_workspace)
    fresh_workspace.ok("stop")
    assert visit_account(fresh_workspace, app) == "Please log in"
    assert not (fresh_workspace.state_dir / "state").exists()


def test_state_clear_logs_out_now_and_after_a_restart(fresh_workspace: Workspace, app: Site) -> None:
    log_in(fresh_workspace, app, "frank")
    wait_until_saved(fresh_workspace)
    out = fresh_workspace.ok("state", "clear")
    assert "saved file deleted" in out
    assert visit_account(fresh_workspace, app) == "Please log in"
    fresh_workspace.ok("stop")
    assert visit_account(fresh_workspace, app) == "Please log in"


def test_a_corrupt_state_file_is_set_aside_and_the_daemon_starts_clean(
    fresh_workspace: Workspace, app: Site
) -> None:
    folder = fresh_workspace.state_dir / "state"
    folder.mkdir(parents=True)
    (folder / "session-default.json").write_text('{"cookies": [{"name": ')
    assert visit_account(fresh_workspace, app) == "Please log in"
    kept = [f.name for f in folder.iterdir() if f.name.endswith(".corrupt")]
    assert len(kept) == 1 and kept[0].startswith("session-default.json.")
    assert "bad state file" in (fresh_workspace.state_dir / "daemon.log").read_text()


def test_sessions_keep_their_own_logins_across_a_restart(fresh_workspace: Workspace, app: Site) -> None:
    log_in(fresh_workspace, app, "gina")
    fresh_workspace.ok("--session", "other", "goto", app.url("/st/account"))
    fresh_workspace.ok("stop")
    assert visit_account(fresh_workspace, app) == "Welcome gina"
    fresh_workspace.ok("--session", "other", "goto", app.url("/st/account"))
    assert strip_fence(fresh_workspace.ok("--session", "other", "text", "h1")).strip() == "Please log in"


# named states


def test_named_states_switch_between_users(workspace: Workspace, app: Site) -> None:
    log_in(workspace, app, "alice")
    assert "Saved state alice: 1 cookies" in workspace.ok("state", "save", "alice")
    workspace.ok("state", "clear")
    log_in(workspace, app, "bob")
    workspace.ok("state", "save", "bob")
    workspace.ok("newtab", app.url("/st/account"))
    out = workspace.ok("state", "load", "alice")
    assert "Loaded state alice" in out and "tabs kept" in out
    assert workspace.ok("tabs").count("\n") >= 2
    workspace.ok("reload")
    assert greeting(workspace) == "Welcome alice"
    workspace.ok("state", "load", "bob")
    assert visit_account(workspace, app) == "Welcome bob"


def test_state_list_shows_each_saved_state(workspace: Workspace, app: Site) -> None:
    workspace.ok("goto", app.url("/st/account"))
    workspace.ok("state", "save", "listed-one")
    lines = workspace.ok("state", "list").splitlines()
    listed = [line for line in lines if line.startswith("listed-one ")]
    assert len(listed) == 1 and "cookies" in listed[0] and "saved" in listed[0]


def test_named_state_files_are_private(workspace: Workspace, app: Site) -> None:
    workspace.ok("goto", app.url("/st/account"))
    workspace.ok("state", "save", "private")
    path = workspace.state_dir / "states" / "private.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_deleted_state_cannot_be_loaded(workspace: Workspace, app: Site) -> None:
    workspace.ok("goto", app.url("/st/account"))
    workspace.ok("state", "save", "stays")  # the error lists the states there are: one at least
    workspace.ok("state", "save", "gone")
    assert workspace.ok("state", "delete", "gone").strip() == "Deleted state gone"
    result = workspace.run("state", "load", "gone")
    assert result.code == 1
    assert "no saved state named gone" in result.err and "saved states:" in result.err
    assert "gone" not in workspace.ok("state", "list").split()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("save", "../evil"), "bad state name"),
        (("save", ".hidden"), "bad state name"),
        (("load",), "needs NAME"),
        (("rename", "x"), "state takes one of save, load"),
        (("list", "x"), "too many arguments"),
    ],
)
def test_bad_state_usage_is_a_clear_error(workspace: Workspace, args: tuple[str, ...], message: str) -> None:
    result = workspace.run("state", *args)
    assert result.code == 2 and message in result.err
