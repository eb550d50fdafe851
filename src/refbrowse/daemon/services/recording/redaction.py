"""Recordings as they may be written: no secret typed in the session, no session credential.

Playwright writes a HAR or a trace zip into the private state folder; these
functions read it back and give the bytes the caller's file gets: every
spelling of a secret (`secrets.TypedSecrets`) replaced in request bodies, URLs,
action parameters, network entries and saved bodies, and, in a HAR, cookies
and Authorization headers replaced too unless the caller asked to keep them.
"""

from __future__ import annotations

import shutil
import zipfile
from typing import Any, BinaryIO

from refbrowse.daemon.services.activity.redact import HIDDEN
from refbrowse.daemon.services.secrets import scrub_bytes, scrub_text

CREDENTIAL_HEADERS = frozenset(("cookie", "set-cookie", "authorization", "proxy-authorization"))
_BINARY = (".png", ".jpeg", ".jpg", ".webp", ".gif", ".woff", ".woff2", ".ttf")


def har_entry(entry: dict[str, Any], secrets: tuple[str, ...], keep_credentials: bool) -> dict[str, Any]:
    """A HAR entry without the secrets (and without credentials unless `keep_credentials`)."""
    if not keep_credentials:
        for side in ("request", "response"):
            _without_credentials(entry.get(side) or {})
    clean: dict[str, Any] = scrubbed(entry, secrets)
    return clean


def scrubbed(value: Any, secrets: tuple[str, ...]) -> Any:
    """`value` (parsed JSON) with every spelling of `secrets` replaced in its strings."""
    return _scrubbed(value, secrets) if secrets else value


def _without_credentials(message: dict[str, Any]) -> None:
    for header in message.get("headers") or []:
        if str(header.get("name", "")).lower() in CREDENTIAL_HEADERS:
            header["value"] = HIDDEN
    for cookie in message.get("cookies") or []:
        cookie["value"] = HIDDEN


def _scrubbed(value: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        return scrub_text(value, secrets)
    if isinstance(value, list):
        return [_scrubbed(item, secrets) for item in value]
    if isinstance(value, dict):
        return {key: _scrubbed(item, secrets) for key, item in value.items()}
    return value


def trace_zip(source: BinaryIO, out: BinaryIO, secrets: tuple[str, ...]) -> None:
    """A Playwright trace zip copied from `source` to `out` with every member scrubbed (its events,
    network log, saved bodies), one member in memory at a time; copied as it is without `secrets`."""
    if not secrets:
        shutil.copyfileobj(source, out, 1 << 20)
        return
    with zipfile.ZipFile(source) as zipped, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as kept:
        for info in zipped.infolist():
            binary = info.filename.lower().endswith(_BINARY)
            kept.writestr(info, scrub_bytes(zipped.read(info), secrets, binary), zipfile.ZIP_DEFLATED)
