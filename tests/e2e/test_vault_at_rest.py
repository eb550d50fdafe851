"""The vault at rest: no plaintext on disk, only its owner reads it (another uid tried),
a key it cannot open sets it aside with a clear error, and the key is held by a
keyring (keyrings.alt's file backend, named) or else by a 0600 file.

Each test has its own workspace and its own config and data folders, so nothing
touches the user's own vault, key or keyring.
"""

from __future__ import annotations

import base64
import configparser
import errno
import os
import stat
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from test_transport import NOBODY, as_root
from test_vault import PASSWORD, _key, _save, _store, ws

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["ws"]  # the fixture shared with test_vault.py

LOGIN = "<form method=post action=/vr/session><input name=user><input name=password type=password></form>"


def test_the_vault_keeps_no_plaintext_and_only_its_owner_reads_it(
    ws: Workspace, site: Site, tmp_path: Path
) -> None:
    said = _save(ws, "shop", site.page("/vr/login", LOGIN))
    assert "Saved the login shop for http://127.0.0.1:" in said and PASSWORD not in said
    assert f"key in {_key(tmp_path)}" in said  # no keyring was named: the key file
    store, key = _store(tmp_path), _key(tmp_path)
    assert PASSWORD.encode() not in store.read_bytes() and b"alice" not in store.read_bytes()
    assert stat.S_IMODE(store.stat().st_mode) == 0o600 and stat.S_IMODE(store.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert not str(store).startswith(str(ws.root)) and not list(ws.root.rglob("vault*"))
    listed, shown = ws.ok("auth", "list"), ws.ok("auth", "show", "shop")
    assert "shop: alice at " in listed and "password: saved" in shown
    assert PASSWORD not in listed + shown
    ws.ok("auth", "update", "shop", "--username", "bob")
    assert "username: bob" in ws.ok("auth", "show", "shop")
    assert "Deleted the login shop" in ws.ok("auth", "delete", "shop")
    missing = ws.run("auth", "show", "shop")
    assert missing.code == 1 and "no saved login named 'shop'" in missing.err


def _read_as_nobody(folder: Path, name: str) -> str:
    """What `nobody` gets reading `folder/name`: "read", or the error's name.

    A forked child opens the file through a descriptor of the folder, opened
    before it drops to `nobody`: the test's temporary folders are private to
    root, and what is tried is a home folder others may pass through (only
    the folder's and the file's own modes stand)."""
    parent = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        said = "unknown"
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            fd = os.open(name, os.O_RDONLY, dir_fd=parent)
            os.read(fd, 1)
            said = "read"
        except OSError as exc:
            said = errno.errorcode.get(exc.errno or 0, str(exc))
        finally:
            os.write(write_end, said.encode())
            os._exit(0)
    os.close(write_end)
    os.close(parent)
    os.waitpid(child, 0)
    answer = os.read(read_end, 64).decode()
    os.close(read_end)
    return answer


@as_root
def test_another_local_user_reads_neither_the_vault_nor_its_key(
    ws: Workspace, site: Site, tmp_path: Path
) -> None:
    _save(ws, "shop", site.page("/vr/login", LOGIN))
    store, key = _store(tmp_path), _key(tmp_path)
    for path in (store, key):
        assert _read_as_nobody(path.parent, path.name) == "EACCES", path  # its folder is 0700
        path.parent.chmod(0o711)  # the folder opened to passers-by: the file's own 0600 still holds
        try:
            assert _read_as_nobody(path.parent, path.name) == "EACCES", path
            (path.parent / "control").write_text("x")  # a file others may read is read: the probe works
            assert _read_as_nobody(path.parent, "control") == "read"
        finally:
            (path.parent / "control").unlink(missing_ok=True)
            path.parent.chmod(0o700)
    assert "shop: alice at " in ws.ok("auth", "list")  # the owner still reads it


def test_a_password_never_comes_from_argv_and_an_empty_one_is_refused(ws: Workspace, site: Site) -> None:
    url = site.page("/vr/login", LOGIN)
    refused = ws.run("auth", "save", "x", "--url", url, input="")
    assert refused.code == 2 and "stdin" in refused.err and "Traceback" not in refused.err
    extra = ws.run("auth", "save", "x", "--url", url, PASSWORD, input=PASSWORD)
    assert extra.code == 2  # no place for a password in argv


def test_a_vault_its_key_cannot_open_is_set_aside_with_a_clear_error(
    ws: Workspace, site: Site, tmp_path: Path
) -> None:
    for damage in ("another key", "a damaged file"):
        _save(ws, "shop", site.page("/vr/login", LOGIN))
        if damage == "another key":
            _key(tmp_path).write_bytes(Fernet.generate_key())
        else:
            _store(tmp_path).write_bytes(b"not a vault")
        broken = ws.run("auth", "list")
        assert broken.code == 1 and "set aside as" in broken.err and "auth save" in broken.err, damage
        assert "Traceback" not in broken.err + broken.out
        assert not _store(tmp_path).exists()
        assert "No saved logins" in ws.ok("auth", "list")  # a fresh start afterwards
    assert len(list(_store(tmp_path).parent.glob("vault.enc.unreadable-*"))) == 2


KEYRING = "keyrings.alt.file.PlaintextKeyring"


def _in_keyring(tmp_path: Path) -> bytes | None:
    """The vault's key as keyrings.alt's file backend keeps it (base64 of the key's text), or None."""
    kept = configparser.RawConfigParser()
    kept.read(tmp_path / "data" / "python_keyring" / "keyring_pass.cfg")
    section = "refbrowse_2Dvault"  # the service's name, escaped as that backend does
    if not kept.has_option(section, "key"):
        return None
    return base64.b64decode(kept.get(section, "key"))


def test_a_named_keyring_holds_the_key_and_an_unnamed_file_keyring_does_not(
    ws: Workspace, site: Site, tmp_path: Path
) -> None:
    pytest.importorskip("keyrings.alt", reason="the test extra installs keyrings.alt")
    del ws.env["BROWSE_VAULT_KEYRING"]
    ws.env["PYTHON_KEYRING_BACKEND"] = KEYRING
    said = _save(ws, "shop", site.page("/vr/login", LOGIN))
    assert f"key in the keyring ({KEYRING})" in said, said
    key = _in_keyring(tmp_path)
    assert key is not None and not _key(tmp_path).exists()
    assert PASSWORD.encode() in Fernet(key).decrypt(_store(tmp_path).read_bytes())  # that key locks it
    assert "password: saved" in ws.ok("auth", "show", "shop")  # a later command finds it there
    # The keyring's entry gone: the vault is set aside, never opened with a new key made elsewhere.
    (tmp_path / "data" / "python_keyring" / "keyring_pass.cfg").write_text("")
    lost = ws.run("auth", "list")
    assert lost.code == 1 and "set aside as" in lost.err and f"the keyring ({KEYRING})" in lost.err
    ws.stop()
    # The same file keyring, installed but named by nobody: the vault keeps its key in its own 0600 file.
    del ws.env["PYTHON_KEYRING_BACKEND"]
    said = _save(ws, "shop", site.page("/vr/login", LOGIN))
    assert f"key in {_key(tmp_path)}" in said, said
    assert _in_keyring(tmp_path) is None and stat.S_IMODE(_key(tmp_path).stat().st_mode) == 0o600
