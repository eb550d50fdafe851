"""Saved logins, encrypted at rest (Fernet: AES-128-CBC with an HMAC) under the vault's key.

The store is one file in the user's data folder (`BROWSE_VAULT_DIR`, else
XDG_DATA_HOME/refbrowse), outside every workspace: a copied or shared
workspace carries no login. The folder is 0700 and the file 0600, written
whole through a temporary file and a rename. A file the key does not open
(another key, or damaged) is set aside under a new name and said in one line,
never a traceback; nothing is overwritten.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import asdict, dataclass, replace
from urllib.parse import urlsplit

from cryptography.fernet import Fernet, InvalidToken

from refbrowse.daemon.services.vault.key import VaultKey
from refbrowse.errors import BrowseError, UsageError
from refbrowse.protocol import read_regular

FILE = "vault.enc"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


def data_dir() -> str:
    if os.environ.get("BROWSE_VAULT_DIR"):
        return os.path.abspath(os.environ["BROWSE_VAULT_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "refbrowse")


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


@dataclass(frozen=True, slots=True)
class Login:
    name: str
    url: str
    username: str
    password: str
    totp: str = ""  # the base32 secret of the site's one-time codes
    created: float = 0.0
    updated: float = 0.0

    @property
    def origin(self) -> str:
        return origin_of(self.url)

    def shown(self) -> str:
        """The login as `auth show` prints it: never the password nor the one-time code secret."""
        lines = [f"{self.name}: {self.url}", f"  username: {self.username or '(none)'}", "  password: saved"]
        lines += ["  one-time codes: saved"] if self.totp else []
        lines.append(f"  updated: {time.strftime('%Y-%m-%d %H:%M', time.localtime(self.updated))}")
        return "\n".join(lines)


class VaultBroken(BrowseError):
    pass


class Vault:
    def __init__(self, folder: str | None = None, key: VaultKey | None = None) -> None:
        self.folder = folder or data_dir()
        self.path = os.path.join(self.folder, FILE)
        self.key = key or VaultKey()

    def logins(self) -> dict[str, Login]:
        if not os.path.exists(self.path):
            return {}
        key = self.key.get(create=False)
        try:
            data = read_regular(self.path)  # never blocked by a FIFO, never through a symlink
            if key is None:
                raise InvalidToken
            entries = json.loads(Fernet(key).decrypt(data))
            return {name: Login(**fields) for name, fields in entries.items()}
        except (InvalidToken, ValueError, TypeError) as exc:
            raise self._set_aside() from exc

    def get(self, name: str) -> Login:
        found = self.logins().get(name)
        if found is None:
            raise BrowseError(f"no saved login named {name!r}", "see them with `browse auth list`")
        return found

    def put(self, login: Login) -> None:
        if not NAME.match(login.name):
            raise UsageError(
                f"a login's name is letters, digits, '.', '_', '@' or '-' (up to 64): {login.name!r}",
                "for example: browse auth save github --url https://github.com/login",
            )
        entries = self.logins()
        now = time.time()
        created = entries[login.name].created if login.name in entries else now
        entries[login.name] = replace(login, created=created, updated=now)
        self._write(entries)

    def delete(self, name: str) -> None:
        entries = self.logins()
        if entries.pop(name, None) is None:
            raise BrowseError(f"no saved login named {name!r}", "see them with `browse auth list`")
        self._write(entries)

    def _write(self, entries: dict[str, Login]) -> None:
        key = self.key.get(create=True)
        assert key is not None
        data = Fernet(key).encrypt(json.dumps({n: asdict(e) for n, e in entries.items()}).encode())
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        os.chmod(self.folder, 0o700)
        scratch = f"{self.path}.{os.getpid()}.tmp"
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(scratch, self.path)

    def _set_aside(self) -> VaultBroken:
        stamp = f"{self.path}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}"
        aside, more = stamp, 1
        while os.path.lexists(aside):  # one set aside in the same second is kept, not replaced
            aside, more = f"{stamp}-{more}", more + 1
        os.replace(self.path, aside)
        return VaultBroken(
            f"the vault {self.path} could not be opened with its key ({self.key.where}): a different key,"
            f" or a damaged file; it was set aside as {aside}",
            "save the logins again with `browse auth save NAME --url URL`",
        )
