"""One-time codes as authenticator apps make them: RFC 6238 (TOTP over RFC 4226's HOTP), SHA-1,
30-second steps, 6 digits, from a base32 secret."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time

STEP_S = 30
DIGITS = 6


def secret_bytes(secret: str) -> bytes:
    """The key in a base32 secret as sites show it (spaces, lower case and missing padding allowed)."""
    text = "".join(secret.split()).upper()
    return base64.b32decode(text + "=" * (-len(text) % 8))


def hotp(key: bytes, counter: int, digits: int = DIGITS) -> str:
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(number % 10**digits).zfill(digits)


def totp(secret: str, at: float | None = None, digits: int = DIGITS) -> str:
    now = time.time() if at is None else at
    return hotp(secret_bytes(secret), int(now // STEP_S), digits)
