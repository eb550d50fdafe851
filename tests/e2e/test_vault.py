"""`auth login NAME` on real login forms: one step, two steps, a one-time code, another origin refused.

The module's tests share one workspace, daemon and vault with config and data
folders of their own (the key file and the store; each test saves its own
login), and the keyring is left out, so nothing touches the user's own. The
vault at rest is test_vault_at_rest.py's, whose tests each take `ws`.
"""

from __future__ import annotations

import stat
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from conftest import FixtureHandler, Site, Workspace
from refbrowse.daemon.services.vault.totp import totp

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PASSWORD = "vault-pw-7Qz!x"
TOTP_SECRET = "JBSWY3DPEHPK3PXP"


@pytest.fixture
def ws(fresh_workspace: Workspace, tmp_path: Path) -> Workspace:
    fresh_workspace.env.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        BROWSE_VAULT_KEYRING="0",
    )
    return fresh_workspace


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    home = tmp_path_factory.mktemp("vault")
    ws = Workspace(home / "ws")
    ws.env.update(
        XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"), BROWSE_VAULT_KEYRING="0"
    )
    yield ws
    ws.stop()


@pytest.fixture
def signed_out(vault: Workspace) -> Workspace:
    """The module's workspace as a new one is, on a blank page and without an earlier test's login
    (a "Welcome alice" is this test's own)."""
    vault.ok("goto", "about:blank")
    vault.ok("cookies", "clear")
    return vault


def _store(tmp_path: Path) -> Path:
    return tmp_path / "data" / "refbrowse" / "vault.enc"


def _key(tmp_path: Path) -> Path:
    return tmp_path / "config" / "refbrowse" / "vault.key"


def _save(ws: Workspace, name: str, url: str, *extra: str, secret: str = PASSWORD) -> str:
    return ws.ok("auth", "save", name, "--url", url, "--username", "alice", *extra, input=secret + "\n")


posted: list[dict[str, list[str]]] = []


def _form(h: FixtureHandler) -> dict[str, list[str]]:
    body = h.rfile.read(int(h.headers.get("Content-Length") or 0)).decode()
    form = parse_qs(body)
    posted.append(form)
    return form


def _session(h: FixtureHandler) -> None:
    form = _form(h)
    if form.get("password") == [PASSWORD] and form.get("user", ["alice"]) == ["alice"]:
        h.redirect("/vt/home", "sid=signed-in; Path=/")
    else:
        h.reply("<p role=alert>Wrong password</p>", 401)


def _home(h: FixtureHandler) -> None:
    signed = "sid=signed-in" in (h.headers.get("Cookie") or "")
    h.reply("<h1>Welcome alice</h1>" if signed else "<h1>Signed out</h1>")


ONE_STEP = (
    "<form method=post action=/vt/session><label>User <input name=user></label>"
    "<label>Password <input name=password type=password></label><button>Sign in</button></form>"
)
FIRST_STEP = (
    "<form method=get action=/vt/password><label>User name <input name=user autocomplete=username></label>"
    "<button>Next</button></form>"
)
SECOND_STEP = (
    "<form method=post action=/vt/session><input type=hidden name=user value=alice>"
    "<label>Password <input name=password type=password></label><button>Sign in</button></form>"
)
CODE_STEP = (
    "<form method=post action=/vt/code><label>Authentication code "
    "<input name=otp autocomplete=one-time-code></label><button>Verify</button></form>"
)


@pytest.fixture(autouse=True)
def _routes(site: Site) -> None:
    posted.clear()
    site.page("/vt/login", ONE_STEP)
    site.page("/vt/first", FIRST_STEP)
    site.page("/vt/password", SECOND_STEP)
    site.route("/vt/session", _session)
    site.route("/vt/home", _home)


def test_auth_login_fills_a_two_step_form_on_the_current_page(signed_out: Workspace, site: Site) -> None:
    ws = signed_out
    _save(ws, "twostep", site.url("/vt/first"))
    ws.ok("goto", site.url("/vt/first"))
    out = ws.ok("auth", "login", "twostep")
    assert "filled user name, then password" in out and "Welcome alice" in out, out


def test_auth_login_types_a_one_time_code_when_asked(signed_out: Workspace, site: Site) -> None:
    ws = signed_out

    def session_then_code(h: FixtureHandler) -> None:
        form = _form(h)
        h.reply(CODE_STEP if form.get("password") == [PASSWORD] else "<p>wrong</p>")

    def code(h: FixtureHandler) -> None:
        form = _form(h)
        if form.get("otp", [""])[0] in (totp(TOTP_SECRET), totp(TOTP_SECRET, __import__("time").time() - 30)):
            h.redirect("/vt/home", "sid=signed-in; Path=/")
        else:
            h.reply("<p role=alert>Wrong code</p>")

    site.route("/vt/session", session_then_code)
    site.route("/vt/code", code)
    _save(ws, "mfa", site.url("/vt/login"), "--totp-secret", secret=f"{PASSWORD}\n{TOTP_SECRET}")
    assert "one-time codes: saved" in ws.ok("auth", "show", "mfa")
    out = ws.ok("auth", "login", "mfa")
    assert "then one-time code" in out and "Welcome alice" in out, out
    assert TOTP_SECRET not in out


def test_auth_login_never_fills_another_origin_even_after_a_redirect(
    signed_out: Workspace, site: Site
) -> None:
    ws = signed_out
    port = site.url().split(":")[2].rstrip("/")
    elsewhere = f"http://localhost:{port}/vt/login"
    site.route("/vt/bounce", lambda h: h.redirect(elsewhere))
    _save(ws, "bounce", site.url("/vt/bounce"))
    refused = ws.run("auth", "login", "bounce")
    assert refused.code == 1 and "not filled: the page is on http://localhost:" in refused.err, refused.err
    assert not posted
    ws.ok("goto", elsewhere)  # a login form of another origin is the current page: it opens its own
    _save(ws, "shop", site.url("/vt/login"))
    out = ws.ok("auth", "login", "shop")
    assert "Welcome alice" in out


def test_auth_login_fills_a_one_step_form_and_no_artifact_holds_the_password(
    signed_out: Workspace, site: Site
) -> None:
    """Last in the module: it stops the daemon and reads every file the module's logins left."""
    ws = signed_out
    _save(ws, "shop", site.url("/vt/login"))
    ws.ok("har", "start")
    ws.ok("trace", "start", "--snapshots")
    ws.ok("video", "start")
    out = ws.ok("auth", "login", "shop")
    assert "Logged in with shop on http://127.0.0.1:" in out and "Welcome alice" in out, out
    assert posted[-1]["password"] == [PASSWORD]
    assert PASSWORD not in out
    ws.ok("har", "stop")
    ws.ok("trace", "stop")
    ws.ok("video", "stop", "login.webm")  # the page's pixels; what we draw over it is never typed text
    video = ws.root / "login.webm"
    assert PASSWORD.encode() not in video.read_bytes() and stat.S_IMODE(video.stat().st_mode) == 0o600
    for line in ("forms", "html", "storage", "network", "console", "snapshot"):
        assert PASSWORD not in ws.ok(line), line
    ws.stop()
    for path in ws.state_dir.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert PASSWORD.encode() not in data, path
            if zipfile.is_zipfile(path):
                with zipfile.ZipFile(path) as archive:
                    assert not [n for n in archive.namelist() if PASSWORD.encode() in archive.read(n)], path
