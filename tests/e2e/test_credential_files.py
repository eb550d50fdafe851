"""Credentials stay home: the known credential files and folders are refused by name to every path
command (upload, screenshot, …) even when the home folder is the workspace; the home folder is a
workspace only when asked; and no tab shows a state directory or a credential file through file://,
whether `goto --allow-file` asked for it or a page navigated there."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

TOKEN = "TOKEN-OF-THE-OTHER-DAEMON-7f3a"
CREDENTIALS = (
    ".netrc",
    ".git-credentials",
    ".config/gh/hosts.yml",
    ".claude/.credentials.json",
    ".docker/config.json",
    ".aws/credentials",
    ".kube/config",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".local/share/keyrings/login.keyring",
    ".config/gcloud/credentials.db",
)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """The home folder made the workspace, as asked (BROWSE_STATE_DIR), with a credential in each place."""
    ws = Workspace(tmp_path_factory.mktemp("credhome"))
    ws.env.update(HOME=str(ws.root), BROWSE_STATE_DIR=str(ws.state_dir), TMPDIR=str(ws.root / "tmp"))
    (ws.root / "tmp").mkdir()
    for name in CREDENTIALS:
        (ws.root / name).parent.mkdir(parents=True, exist_ok=True)
        (ws.root / name).write_text(f"secret of {name}\n")
    yield ws
    ws.stop()


@pytest.fixture(scope="module")
def form(home: Workspace, site: Site) -> str:
    url = site.page("/cred-form", "<h1>Form</h1><input type=file id=f>")
    home.ok("goto", url)
    return url


def _files_on_page(ws: Workspace) -> str:
    return strip_fence(ws.ok("js", "document.getElementById('f').files.length")).strip()


@pytest.mark.parametrize("name", CREDENTIALS)
def test_credential_files_are_refused_by_name_even_with_home_as_the_workspace(
    home: Workspace, form: str, name: str
) -> None:
    path = home.root / name
    for extra in ((), ("--allow-path", str(home.root))):
        result = home.run("upload", "#f", str(path), *extra)
        assert result.code == 2 and "holds private keys, tokens" in result.err, (name, result.err)
    assert _files_on_page(home) == "0"
    result = home.run("screenshot", "--viewport", str(path))
    assert result.code == 2 and path.read_text() == f"secret of {name}\n", result.err


def test_a_credential_file_is_known_by_name_anywhere_and_allowed_when_named(
    home: Workspace, form: str
) -> None:
    other = home.root / "tmp" / "another-home"
    other.mkdir(exist_ok=True)
    (other / ".git-credentials").write_text("https://user:ghp_x@github.com\n")
    result = home.run("upload", "#f", str(other / ".git-credentials"))
    assert result.code == 2 and f"it is {other / '.git-credentials'}, which holds" in result.err, result.err
    netrc = home.root / ".netrc"
    home.ok("upload", "#f", str(netrc), "--allow-path", str(netrc))
    assert _files_on_page(home) == "1"


def _plain_home(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A home folder that is no project (no .git), as a person's is, with its own XDG state folder."""
    home = tmp_path / "home"
    (home / "proj").mkdir(parents=True)
    # The system temp folder, where the suite's folders are, must allow nothing of home; and it stays
    # short: Chromium's singleton socket lives in it, and a unix socket's path has 107 bytes at most
    # (under a test worker's folder the launch failed: "Target page, context or browser has been closed").
    temp = Path(tempfile.mkdtemp(prefix="rbh", dir="/tmp"))
    env = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state"), "TMPDIR": str(temp)}
    return home, env


def _workspace_in(folder: Path, env: dict[str, str]) -> Workspace:
    ws = Workspace(folder)
    shutil.rmtree(folder / ".git")
    ws.env.update(env)
    return ws


def test_the_home_folder_is_a_workspace_only_when_asked(
    tmp_path: Path, site: Site, request: pytest.FixtureRequest
) -> None:
    home, env = _plain_home(tmp_path)
    request.addfinalizer(lambda: shutil.rmtree(env["TMPDIR"], ignore_errors=True))
    (home / "notes.txt").write_text("a person's own file\n")
    in_home = _workspace_in(home, env)
    try:
        in_home.ok("goto", site.page("/cred-home", "<input type=file id=f>"))
        assert not (home / ".refbrowse").exists(), list(home.iterdir())
        assert (home / ".local" / "state" / "refbrowse" / ".refbrowse" / "daemon.json").exists()
        result = in_home.run("upload", "#f", str(home / "notes.txt"))
        assert result.code == 2 and "outside the workspace" in result.err, result.err
        shot = in_home.run("screenshot", "--viewport", str(home / "shot.png"))
        assert shot.code == 2 and f"--allow-path {home}" in shot.err, shot.err
    finally:
        in_home.stop()
    (home / ".refbrowse").mkdir(mode=0o700)  # a home that once was a workspace does not pull a project in
    in_proj = _workspace_in(home / "proj", env)
    try:
        in_proj.ok("goto", site.page("/cred-proj", "<p>proj</p>"))
        assert (home / "proj" / ".refbrowse" / "daemon.json").exists()
        assert not (home / ".refbrowse" / "daemon.json").exists()
    finally:
        in_proj.stop()


def _other_workspace(root: Path, name: str) -> Path:
    state = root / name
    state.mkdir(parents=True, mode=0o700)
    (state / "daemon.json").write_text(json.dumps({"pid": 1, "token": TOKEN}))
    (state / "daemon.lock").write_text("1\n")
    return state


@pytest.mark.parametrize("name", [".refbrowse", "custom-state"])
def test_goto_allow_file_never_opens_a_state_directory(home: Workspace, form: str, name: str) -> None:
    other = _other_workspace(home.root / "tmp" / f"other-{name}", name)
    for target in (other / "daemon.json", other, home.state_dir / "daemon.json"):
        result = home.run("goto", target.as_uri(), "--allow-file")
        assert result.code == 2 and "state directory" in result.err, (target, result.err)
    result = home.run("goto", (home.root / ".netrc").as_uri(), "--allow-file")
    assert result.code == 2 and "which holds credentials" in result.err, result.err
    assert TOKEN not in home.ok("text")


def test_a_file_page_cannot_take_a_tab_into_a_state_directory(fresh_workspace: Workspace) -> None:
    """Even with file:// allowed for the whole daemon (BROWSE_ALLOW_FILE=1)."""
    home = fresh_workspace
    home.env["BROWSE_ALLOW_FILE"] = "1"
    other = _other_workspace(home.root / "tmp" / "other-nav", ".refbrowse")
    target = (other / "daemon.json").as_uri()
    pages = home.root / "tmp" / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    (pages / "link.html").write_text(f'<a id=go href="{target}">go</a>')
    (pages / "refresh.html").write_text(f'<meta http-equiv=refresh content="0;url={target}">')
    (pages / "frame.html").write_text(f'<iframe id=fr src="{target}"></iframe>')
    (pages / "script.html").write_text(f"<script>location.href = {json.dumps(target)}</script>")
    home.ok("goto", (pages / "link.html").as_uri())
    home.run("click", "#go")
    _assert_never_shown(home)
    for page in ("refresh.html", "script.html", "frame.html"):
        home.ok("goto", (pages / page).as_uri())
        _assert_never_shown(home)
        frames = strip_fence(home.ok("js", "[...document.querySelectorAll('iframe')].length")).strip()
        if page == "frame.html":
            assert frames == "1"


def _assert_never_shown(ws: Workspace) -> None:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the tab is sent away as soon as it arrives; give it that moment
        url = ws.ok("url").strip()
        if "daemon.json" not in url:
            break
        time.sleep(0.2)
    assert "daemon.json" not in ws.ok("url")
    assert TOKEN not in ws.ok("text") and TOKEN not in ws.ok("snapshot")
    inner = "Array.from({length: frames.length}, (_, i) => { try { return frames[i].document.body.innerText }"
    assert TOKEN not in ws.ok("js", inner + " catch (e) { return '' } }).join('|')")
