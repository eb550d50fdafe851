"""Chromium's cookie encryption, written out from its documentation: tests make encrypted cookies with it."""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC


def chromium_encrypt(
    plain: str, password: bytes, iterations: int, host: str, version: int, prefix: bytes
) -> bytes:
    key = PBKDF2HMAC(algorithm=hashes.SHA1(), length=16, salt=b"saltysalt", iterations=iterations).derive(
        password
    )
    data = (hashlib.sha256(host.encode()).digest() if version >= 24 else b"") + plain.encode()
    padder = padding.PKCS7(128).padder()
    padded = padder.update(data) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(b" " * 16)).encryptor()
    return prefix + encryptor.update(padded) + encryptor.finalize()
