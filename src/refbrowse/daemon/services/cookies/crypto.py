"""Chromium's cookie encryption (OSCrypt) on Linux and macOS, through `cryptography`.

A value is `v10` or `v11` followed by AES-128-CBC ciphertext with an IV of 16
spaces and PKCS#7 padding. The key is PBKDF2-HMAC-SHA1 of a password with the
salt `saltysalt`: 1 iteration on Linux (password `peanuts` for `v10`, the
Secret Service password for `v11`), 1003 on macOS (the Keychain password).
Databases from version 24 on prefix each plaintext with SHA-256 of the cookie's
host, which binds a value to its domain.
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

SALT = b"saltysalt"
IV = b" " * 16
LINUX_V10_PASSWORD = b"peanuts"
LINUX_ITERATIONS = 1
MAC_ITERATIONS = 1003
HOST_HASH_SINCE = 24  # meta.version from which values start with sha256(host_key)


class DecryptError(ValueError):
    """A value that does not decrypt: the reason is safe to print (it holds no value)."""


def derive_key(password: bytes, iterations: int) -> bytes:
    # SHA1 because Chromium derives its cookie key with it: reading, not protecting, data.
    kdf = PBKDF2HMAC(algorithm=hashes.SHA1(), length=16, salt=SALT, iterations=iterations)  # noqa: S303
    return kdf.derive(password)


def decrypt(encrypted: bytes, key: bytes, host_key: str, db_version: int) -> str:
    """The plaintext of a `v10`/`v11` value."""
    body = encrypted[3:]
    if not body or len(body) % 16:
        raise DecryptError("truncated ciphertext")
    decryptor = Cipher(algorithms.AES(key), modes.CBC(IV)).decryptor()
    padded = decryptor.update(body) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    try:
        plain = unpadder.update(padded) + unpadder.finalize()
    except ValueError:
        raise DecryptError("wrong key (bad padding)") from None
    if db_version >= HOST_HASH_SINCE:
        if plain[:32] != hashlib.sha256(host_key.encode()).digest():
            raise DecryptError("wrong key (host hash does not match)")
        plain = plain[32:]
    try:
        return plain.decode("utf-8")
    except UnicodeDecodeError:
        raise DecryptError("wrong key (not text)") from None
