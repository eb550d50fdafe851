"""The vault's key: held by the OS keyring when the `keyring` package has a usable backend,
else in a file readable by this user only, in the user's config folder (never a workspace).

`BROWSE_VAULT_KEYRING=0` skips the keyring (tests, and machines whose keyring
would ask a person to unlock it at every start).
"""

from __future__ import annotations

import importlib
import logging
import os
from typing import Any

from cryptography.fernet import Fernet

from refbrowse.protocol import read_regular

log = logging.getLogger("refbrowse")
SERVICE = "refbrowse-vault"
ACCOUNT = "key"
KEY_FILE = "vault.key"


def config_dir() -> str:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "refbrowse")


class VaultKey:
    """Where the key lives, said in `auth` output; `get` makes one on first use when `create`."""

    def __init__(self, folder: str | None = None) -> None:
        self.folder = folder or config_dir()
        self._keyring = _usable_keyring()
        self.where = "the OS keyring" if self._keyring is not None else os.path.join(self.folder, KEY_FILE)

    def get(self, create: bool) -> bytes | None:
        """The key; None when there is none yet and `create` is False."""
        if self._keyring is not None:
            stored = self._keyring.get_password(SERVICE, ACCOUNT)
            if stored is None and create:
                stored = Fernet.generate_key().decode()
                self._keyring.set_password(SERVICE, ACCOUNT, stored)
            return stored.encode() if stored else None
        return self._from_file(create)

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
    return keyring
