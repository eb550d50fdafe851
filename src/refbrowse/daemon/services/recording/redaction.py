"""Recordings as they may be written: no secret typed in the session, no session credential.

Playwright writes a HAR or a trace zip into the private state folder; these
functions read it back and give the bytes the caller's file gets: every
spelling of a secret (`secrets.TypedSecrets`) replaced in request bodies, URLs,
action parameters, network entries and saved bodies, and, in a HAR, cookies
and Authorization headers replaced too unless the caller asked to keep them.
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from refbrowse.daemon.services.activity.redact import HIDDEN
from refbrowse.daemon.services.secrets import scrub_bytes, scrub_text

CREDENTIAL_HEADERS = frozenset(("cookie", "set-cookie", "authorization", "proxy-authorization"))
_BINARY = (".png", ".jpeg", ".jpg", ".webp", ".gif", ".woff", ".woff2", ".ttf")


def har(data: bytes, secrets: tuple[str, ...], keep_credentials: bool) -> bytes:
    """A HAR file's bytes without the secrets (and without credentials unless `keep_credentials`)."""
    parsed = json.loads(data)
    if not keep_credentials:
        for entry in parsed.get("log", {}).get("entries", []):
            for side in ("request", "response"):
                _without_credentials(entry.get(side) or {})
    return json.dumps(_scrubbed(parsed, secrets), ensure_ascii=False, indent=2).encode()


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


def trace_zip(data: bytes, secrets: tuple[str, ...]) -> bytes:
    """A Playwright trace zip's bytes with every member scrubbed (its events, network log, saved bodies)."""
    if not secrets:
        return data
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as kept:
        for info in source.infolist():
            binary = info.filename.lower().endswith(_BINARY)
            kept.writestr(info, scrub_bytes(source.read(info), secrets, binary), zipfile.ZIP_DEFLATED)
    return out.getvalue()
