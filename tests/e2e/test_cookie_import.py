"""Cookie import: JSON files, and real browser profiles decrypted on this computer.

The Chromium profile is made here by Debian's `chromium` with
`--password-store=basic`, so its values are `v10`-encrypted as on any Linux
desktop without a keyring. `v11` (keyring) and macOS (Keychain) values are built
by the test from Chromium's documented scheme, independently of our code.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from chromiumcrypto import chromium_encrypt
from conftest import FixtureHandler, Site, Workspace, home_with_chromium_profile, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

KEYRING_PASSWORD = "keyring-secret-42"


def _echo(h: FixtureHandler) -> None:
    h.reply(f"<pre id=cookies>{h.headers.get('Cookie') or '(none)'}</pre>")


def _set_cookies(h: FixtureHandler) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Set-Cookie", "sid=alice-session-7f3a; Max-Age=86400; Path=/; HttpOnly")
    h.send_header("Set-Cookie", "theme=dark; Max-Age=86400; Path=/")
    h.end_headers()
    h.wfile.write(b"<p>cookies set</p>")


@pytest.fixture(scope="module")
def app(site: Site) -> Site:
    site.route("/ci/echo", _echo)
    site.route("/ci/set", _set_cookies)
    return site


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory, app: Site) -> Path:
    """A home directory whose Chromium profile got its cookies from a real visit."""
    return home_with_chromium_profile(tmp_path_factory, app.url("/ci/set"))


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[Workspace]:
    """A daemon that sees `home` as the user's home, and a fake keyring tool."""
    tools = home / "bin"
    tools.mkdir(exist_ok=True)
    tool = tools / "secret-tool"
    tool.write_text(
        '#!/bin/sh\n[ "$*" = "lookup application chromium" ] || exit 1\n'
        f"printf '%s\\n' '{KEYRING_PASSWORD}'\n"
    )
    tool.chmod(0o755)
    workspace = Workspace(tmp_path_factory.mktemp("ws"))
    workspace.env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        PATH=f"{tools}:{os.environ['PATH']}",
        BROWSE_PERSIST="0",
    )
    yield workspace
    workspace.stop()


def cookies_seen_by_server(ws: Workspace, app: Site) -> str:
    ws.ok("goto", app.url("/ci/echo"))
    return strip_fence(ws.ok("text", "#cookies")).strip()


def forget_cookies(ws: Workspace) -> None:
    ws.ok("state", "clear")


def add_profile(home: Path, name: str, rows: list[tuple[str, str, bytes]]) -> Path:
    """A second profile: a copy of the real one's database, with extra encrypted rows."""
    base = home / ".config" / "chromium"
    folder = base / name
    folder.mkdir(exist_ok=True)
    db = folder / "Cookies"
    shutil.copyfile(base / "Default" / "Cookies", db)
    with sqlite3.connect(db) as conn:
        template = conn.execute("SELECT * FROM cookies WHERE name = 'theme'").fetchone()
        columns = [c[1] for c in conn.execute("PRAGMA table_info(cookies)")]
        for cookie_name, host, encrypted in rows:
            values = dict(zip(columns, template, strict=True))
            values.update(name=cookie_name, host_key=host, encrypted_value=encrypted, value="")
            marks = ",".join("?" * len(columns))
            conn.execute(f"INSERT INTO cookies ({','.join(columns)}) VALUES ({marks})", list(values.values()))
    return db


# cookie-import FILE


def test_cookie_import_sends_the_cookies_to_the_site(ws: Workspace, app: Site, tmp_path: Path) -> None:
    forget_cookies(ws)
    cookies = [
        {"name": "sid", "value": "from-playwright", "domain": "127.0.0.1", "path": "/", "expires": -1,
         "httpOnly": True, "secure": False, "sameSite": "Lax"},
        {"name": "ext", "value": "from-extension", "domain": "127.0.0.1", "path": "/", "hostOnly": True,
         "expirationDate": 4102444800.5, "session": False, "sameSite": "unspecified", "storeId": "0"},
    ]  # fmt: skip
    path = tmp_path / "cookies.json"
    path.write_text(json.dumps(cookies))
    out = ws.ok("cookie-import", str(path))
    assert "Imported 2 cookies" in out and "127.0.0.1" in out
    assert "from-playwright" not in out
    seen = cookies_seen_by_server(ws, app)
    assert "sid=from-playwright" in seen and "ext=from-extension" in seen


def test_cookie_import_takes_a_playwright_storage_state(ws: Workspace, app: Site, tmp_path: Path) -> None:
    forget_cookies(ws)
    path = tmp_path / "state.json"
    path.write_text(
        json.dumps({"cookies": [{"name": "a", "value": "1", "url": app.url("/")}], "origins": []})
    )
    ws.ok("cookie-import", str(path))
    assert cookies_seen_by_server(ws, app) == "a=1"


def test_a_bad_entry_is_named_and_nothing_is_imported(ws: Workspace, app: Site, tmp_path: Path) -> None:
    forget_cookies(ws)
    path = tmp_path / "bad.json"
    good = {"name": "good", "value": "1", "domain": "127.0.0.1", "path": "/"}
    bad = {"name": "late", "value": "2", "domain": "127.0.0.1", "expires": "tomorrow"}
    path.write_text(json.dumps([good, bad]))
    result = ws.run("cookie-import", str(path))
    assert result.code == 2
    assert "entry 2 (late)" in result.err and "expires" in result.err
    assert "nothing was imported" in result.err
    assert cookies_seen_by_server(ws, app) == "(none)"


def test_a_cookie_the_browser_refuses_is_named_and_nothing_changes(
    ws: Workspace, app: Site, tmp_path: Path
) -> None:
    forget_cookies(ws)
    ws.ok("js", "document.cookie = 'kept=yes; path=/'")
    path = tmp_path / "refused.json"
    good = {"name": "fine", "value": "1", "domain": "127.0.0.1", "path": "/"}
    # Browsers refuse a __Host- cookie that is not Secure.
    host_prefixed = {"name": "__Host-id", "value": "2", "domain": "127.0.0.1", "path": "/"}
    path.write_text(json.dumps([good, host_prefixed]))
    result = ws.run("cookie-import", str(path))
    assert result.code == 1
    assert "refused entry 2 (__Host-id for 127.0.0.1)" in result.err and "nothing was imported" in result.err
    assert cookies_seen_by_server(ws, app) == "kept=yes"


def test_a_file_that_is_not_json_is_a_clear_error(ws: Workspace, tmp_path: Path) -> None:
    path = tmp_path / "oops.json"
    path.write_text("name=sid; value=1")
    result = ws.run("cookie-import", str(path))
    assert result.code == 2
    assert str(path) in result.err and "not valid JSON" in result.err


def test_a_missing_file_is_named(ws: Workspace, tmp_path: Path) -> None:
    result = ws.run("cookie-import", str(tmp_path / "nope.json"))
    assert result.code == 2
    assert f"error: cannot read {tmp_path / 'nope.json'}: No such file or directory\n" in result.err
    assert result.err.count("nope.json") == 1, "the path is said once"


# cookie-import-browser: a real Chromium profile


def test_cookies_from_a_real_chromium_profile_log_the_session_in(ws: Workspace, app: Site) -> None:
    forget_cookies(ws)
    out = ws.ok("cookie-import-browser", "chromium", "--domain", "127.0.0.1")
    assert "Imported 2 cookies for 127.0.0.1 from Chromium (profile Default)" in out
    assert "alice-session" not in out
    seen = cookies_seen_by_server(ws, app)
    assert "sid=alice-session-7f3a" in seen and "theme=dark" in seen


def test_the_list_shows_the_profiles_found(ws: Workspace, home: Path) -> None:
    out = ws.ok("cookie-import-browser", "--list")
    assert "chromium: Default" in out
    assert str(home / ".config" / "chromium") in out


def test_a_domain_with_no_cookies_imports_none(ws: Workspace) -> None:
    out = ws.ok("cookie-import-browser", "chromium", "--domain", "example.org")
    assert "Imported 0 cookies for example.org" in out and "none of its 2 cookies" in out


def test_a_profile_name_cannot_leave_the_browser_directory(ws: Workspace) -> None:
    for bad in ("../../etc", "a/b", ".."):
        result = ws.run("cookie-import-browser", "chromium", "--profile", bad)
        assert result.code == 2 and "bad profile name" in result.err


def test_an_unknown_browser_lists_the_known_ones(ws: Workspace) -> None:
    result = ws.run("cookie-import-browser", "netscape")
    assert result.code == 2 and "chrome, chromium, brave, edge, firefox" in result.err


def test_v11_values_are_decrypted_with_the_keyring_password(ws: Workspace, app: Site, home: Path) -> None:
    forget_cookies(ws)
    good = chromium_encrypt("from-keyring", KEYRING_PASSWORD.encode(), 1, "127.0.0.1", 24, b"v11")
    wrong = chromium_encrypt("nope", b"another-password", 1, "127.0.0.1", 24, b"v11")
    # Chromium itself falls back to an empty password when the keyring gave none.
    empty = chromium_encrypt("no-keyring", b"", 1, "127.0.0.1", 24, b"v11")
    rows = [("kr", "127.0.0.1", good), ("wrongkey", "127.0.0.1", wrong), ("empty", "127.0.0.1", empty)]
    add_profile(home, "Profile 1", rows)
    out = ws.ok("cookie-import-browser", "chromium", "--profile", "Profile 1")
    assert "Imported 4 cookies from Chromium (profile Profile 1)" in out
    assert "1 could not be decrypted" in out and "v11: wrong key" in out
    seen = cookies_seen_by_server(ws, app)
    assert "kr=from-keyring" in seen and "empty=no-keyring" in seen and "wrongkey" not in seen


def test_cookies_that_cannot_be_read_or_added_are_skipped_and_counted(
    ws: Workspace, app: Site, home: Path
) -> None:
    forget_cookies(ws)
    good = chromium_encrypt("still-here", b"peanuts", 1, "127.0.0.1", 24, b"v10")
    junk = b"v10" + bytes(range(32))  # not a ciphertext of any key
    refused = chromium_encrypt("bad\x01value;x", b"peanuts", 1, "127.0.0.1", 24, b"v10")
    rows = [("good", "127.0.0.1", good), ("junk", "127.0.0.1", junk), ("odd", "127.0.0.1", refused)]
    db = add_profile(home, "Profile 3", rows)
    with sqlite3.connect(db) as conn:  # a value stored as text, not bytes
        conn.execute("UPDATE cookies SET name = 'text', encrypted_value = 'v10abc' WHERE name = 'theme'")
    result = ws.run("cookie-import-browser", "chromium", "--profile", "Profile 3")
    assert result.code == 0, result.err
    assert "could not be decrypted" in result.out and "unreadable row (TypeError)" in result.out
    assert "refused by the browser (not imported): odd for 127.0.0.1" in result.out
    assert "bad\x01value" not in result.out and "still-here" not in result.out
    seen = cookies_seen_by_server(ws, app)
    assert "good=still-here" in seen and "sid=alice-session-7f3a" in seen
    assert "junk" not in seen and "odd" not in seen


def test_a_corrupt_cookie_database_is_a_clear_error(ws: Workspace, home: Path) -> None:
    folder = home / ".config" / "chromium" / "Profile 2"
    folder.mkdir(exist_ok=True)
    (folder / "Cookies").write_bytes(b"this is not a database" * 100)
    result = ws.run("cookie-import-browser", "chromium", "--profile", "Profile 2")
    assert result.code == 1
    assert "Profile 2/Cookies is corrupt" in result.err and "run the import again" in result.err


def test_a_locked_database_is_read_from_a_copy_without_disturbing_the_writer(
    ws: Workspace, app: Site, home: Path
) -> None:
    forget_cookies(ws)
    db = add_profile(home, "Profile 3", [])
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("UPDATE cookies SET name = 'renamed' WHERE name = 'theme'")
    try:
        out = ws.ok("cookie-import-browser", "chromium", "--profile", "Profile 3")
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert "Imported 2 cookies" in out
    assert "theme=dark" in cookies_seen_by_server(ws, app)


# Firefox


def test_cookies_from_a_firefox_profile_are_imported(ws: Workspace, app: Site, home: Path) -> None:
    forget_cookies(ws)
    folder = home / ".mozilla" / "firefox" / "abcd1234.default-release"
    folder.mkdir(parents=True)
    with sqlite3.connect(folder / "cookies.sqlite") as conn:
        conn.execute(
            "CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '',"
            " name TEXT, value TEXT, host TEXT, path TEXT, expiry INTEGER, lastAccessed INTEGER,"
            " creationTime INTEGER, isSecure INTEGER, isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0,"
            " sameSite INTEGER DEFAULT 0, rawSameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0)"
        )
        rows = [
            ("fx", "from-firefox", "127.0.0.1", 4102444800, 1),
            ("old", "expired", "127.0.0.1", 1000, 0),
            ("other", "elsewhere", ".example.com", 4102444800, 0),
        ]
        conn.executemany(
            "INSERT INTO moz_cookies (name, value, host, path, expiry, isSecure, isHttpOnly, sameSite)"
            " VALUES (?, ?, ?, '/', ?, 0, 1, ?)",
            rows,
        )
    out = ws.ok("cookie-import-browser", "firefox", "--domain", "127.0.0.1")
    assert "Imported 1 cookie for 127.0.0.1 from Firefox (profile abcd1234.default-release)" in out
    assert cookies_seen_by_server(ws, app) == "fx=from-firefox"


def test_imported_cookies_are_persisted_only_in_the_private_state_file(
    fresh_workspace: Workspace, app: Site, home: Path
) -> None:
    fresh_workspace.env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    fresh_workspace.ok("cookie-import-browser", "chromium", "--domain", "127.0.0.1")
    fresh_workspace.ok("stop")
    holders = [
        p for p in fresh_workspace.root.rglob("*") if p.is_file() and b"alice-session" in p.read_bytes()
    ]
    assert [p.name for p in holders] == ["session-default.json"]
    assert stat.S_IMODE(holders[0].stat().st_mode) == 0o600
    assert "alice-session" not in (fresh_workspace.state_dir / "daemon.log").read_text()
