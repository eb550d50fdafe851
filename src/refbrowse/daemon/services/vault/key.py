"""The vault's key: held by the OS keyring when the `keyring` package has a usable backend,
else in a file readable by this user only, in the user's config folder (never a workspace).

`BROWSE_VAULT_KEYRING=0` skips the keyring (tests, and machines whose keyring
would ask a person to unlock it at every start). A backend that keeps its
secrets in a file of its own (keyrings.alt's) is no better than the 0600 key
file, so it is used only when the person named it (`PYTHON_KEYRING_BACKEND`,
or keyring's config file).
"""

from __future__ import annotations

import configparser
import importlib
import logging
import os
from typing import Any

from cryptography.fernet import Fernet

from refbrowse.errors import BrowseError
from refbrowse.protocol import read_regular

log = logging.getLogger("refbrowse")
SERVICE = "refbrowse-vault"
ACCOUNT = "key"
KEY_FILE = "vault.key"
_FILE_BACKENDS = ("keyrings.alt",)  # a keyring in a plain file: used only when named


def config_dir() -> str:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "refbrowse")


class VaultKey:
    """Where the key lives, said in `auth` output; `get` makes one on first use when `create`."""

    def __init__(self, folder: str | None = None) -> None:
        self.folder = folder or config_dir()
        self._keyring = _usable_keyring()
        self.where = (
            f"the keyring ({_backend_name(self._keyring)})"
            if self._keyring is not None
            else os.path.join(self.folder, KEY_FILE)
        )

    def get(self, create: bool) -> bytes | None:
        """The key; None when there is none yet and `create` is False."""
        if self._keyring is not None:
            return self._from_keyring(self._keyring, create)
        return self._from_file(create)

    def _from_keyring(self, keyring: Any, create: bool) -> bytes | None:
        # A keyring that fails (locked, its service gone) is said, never worked around: a new key
        # elsewhere would leave the saved vault unreadable.
        try:
            stored = keyring.get_password(SERVICE, ACCOUNT)
            if stored is None and create:
                stored = Fernet.generate_key().decode()
                keyring.set_password(SERVICE, ACCOUNT, stored)
        except (keyring.errors.KeyringError, OSError, RuntimeError, ValueError) as exc:
            said = f"{type(exc).__name__}: {exc}"[:200]
            raise BrowseError(
                f"the keyring that holds the vault's key did not answer ({said})",
                "unlock the keyring and try again (BROWSE_VAULT_KEYRING=0 keeps a new vault's key in a file)",
            ) from None
        return str(stored).encode() if stored else None

    def _from_file(self, create: bool) -> bytes | None:
        path = os.path.join(self.folder, KEY_FILE)
        try:
            return read_regular(path).strip()
        except FileNotFoundError:
            if not create:
                return None
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        key = Fernet.generate_key()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key


def _usable_keyring() -> Any | None:
    """The keyring module when a real backend answers (not the fail or null backend), else None."""
    if os.environ.get("BROWSE_VAULT_KEYRING", "1") == "0":
        return None
    try:
        keyring = importlib.import_module("keyring")
        backend = keyring.get_keyring()
    except (ImportError, OSError, RuntimeError, ValueError) as exc:  # optional, or no backend loads
        log.info("vault: no keyring (%s); using a key file", exc)
        return None
    priority = getattr(backend, "priority", 0)
    name = type(backend).__module__
    if not isinstance(priority, int | float) or priority <= 0 or name.endswith(("fail", "null")):
        return None
    if name.startswith(_FILE_BACKENDS) and not _named(keyring):
        log.info("vault: the keyring %s is a plain file nobody chose; using a key file", name)
        return None
    return keyring


def _backend_name(keyring: Any) -> str:
    backend = type(keyring.get_keyring())
    return f"{backend.__module__}.{backend.__name__}"


def _named(keyring: Any) -> bool:
    """The person chose the keyring's backend: in the environment, or in keyring's config file."""
    if os.environ.get("PYTHON_KEYRING_BACKEND"):
        return True
    try:
        return keyring.core.load_config() is not None
    except (ImportError, OSError, RuntimeError, ValueError, LookupError, configparser.Error):  # unreadable
        return False
