"""Where Chromium's encryption passwords come from, cached for the daemon's life only.

Linux `v11`: the Secret Service keyring (GNOME Keyring, KeePassXC), through the
optional `secretstorage` package, else the `secret-tool` command. macOS: the
Keychain, through `security`. Both commands run with argument arrays, never a
shell, and with a timeout (the keyring may ask the user to unlock it).
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from typing import Any

from refbrowse.daemon.services.cookies.crypto import (
    LINUX_ITERATIONS,
    LINUX_V10_PASSWORD,
    MAC_ITERATIONS,
    derive_key,
)

TOOL_TIMEOUT_S = 30
_KEYS: dict[tuple[str, str], bytes] = {}


class KeyUnavailable(Exception):
    """No key for this kind of value; the message says why, for the import report."""


def key_for(prefix: str, keyring_app: str, keychain: tuple[str, str]) -> bytes:
    """The AES key for values starting with `prefix` ("v10"/"v11") of one browser."""
    platform = "mac" if sys.platform == "darwin" else "linux"
    cache_key = (platform, f"{prefix}:{keyring_app}")
    if cache_key not in _KEYS:
        _KEYS[cache_key] = _derive(platform, prefix, keyring_app, keychain)
    return _KEYS[cache_key]


def _derive(platform: str, prefix: str, keyring_app: str, keychain: tuple[str, str]) -> bytes:
    if platform == "mac":
        return derive_key(keychain_password(*keychain), MAC_ITERATIONS)
    if prefix == "v10":
        return derive_key(LINUX_V10_PASSWORD, LINUX_ITERATIONS)
    return derive_key(keyring_password(keyring_app), LINUX_ITERATIONS)


def keyring_password(application: str) -> bytes:
    """The Secret Service password stored with attribute `application` (e.g. "chrome")."""
    secret = _from_secretstorage(application)
    if secret is None:
        secret = _from_secret_tool(application)
    if not secret:
        raise KeyUnavailable(f"no '{application}' password in the Secret Service keyring")
    return secret


def _from_secretstorage(application: str) -> bytes | None:
    try:
        secretstorage: Any = importlib.import_module("secretstorage")
    except ImportError:
        return None
    try:
        with secretstorage.dbus_init() as connection:
            collection = secretstorage.get_default_collection(connection)
            if collection.is_locked():
                collection.unlock()
            for item in collection.search_items({"application": application}):
                return bytes(item.get_secret())
    except Exception:  # noqa: BLE001 - any D-Bus trouble means: try secret-tool
        return None
    return None


def _from_secret_tool(application: str) -> bytes | None:
    tool = shutil.which("secret-tool")
    if tool is None:
        raise KeyUnavailable(
            "the Secret Service keyring is not reachable (install secret-tool, or the secretstorage package)"
        )
    out = _run([tool, "lookup", "application", application], "secret-tool")
    return out.rstrip(b"\n") or None


def keychain_password(service: str, account: str) -> bytes:
    tool = shutil.which("security") or "/usr/bin/security"
    out = _run([tool, "find-generic-password", "-w", "-s", service, "-a", account], "security")
    if not out.strip():
        raise KeyUnavailable(f"no '{service}' password in the macOS Keychain")
    return out.rstrip(b"\n")


def _run(argv: list[str], name: str) -> bytes:
    try:
        # argv is one of our fixed key-store tool commands, never text from a page.
        done = subprocess.run(argv, capture_output=True, timeout=TOOL_TIMEOUT_S, check=False)  # noqa: S603
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise KeyUnavailable(f"{name} failed: {exc}") from exc
    if done.returncode != 0:
        raise KeyUnavailable(f"{name} found no password (exit {done.returncode})")
    return done.stdout
