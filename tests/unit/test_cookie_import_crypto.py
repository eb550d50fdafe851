"""Chromium's cookie encryption: test vectors for Linux v10/v11 and macOS, and domain matching."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from chromiumcrypto import chromium_encrypt
from refbrowse.daemon.services.cookies import keys
from refbrowse.daemon.services.cookies.crypto import DecryptError, decrypt, derive_key
from refbrowse.daemon.services.cookies.model import sent_to


@pytest.mark.parametrize(
    ("prefix", "password", "iterations", "version"),
    [
        (b"v10", b"peanuts", 1, 24),  # Linux, basic password store
        (b"v11", b"from the keyring", 1, 24),  # Linux, Secret Service
        (b"v10", b"keychain password", 1003, 24),  # macOS Keychain
        (b"v10", b"keychain password", 1003, 18),  # an older database: no host hash
    ],
)
def test_values_decrypt_as_chromium_encrypted_them(
    prefix: bytes, password: bytes, iterations: int, version: int
) -> None:
    plain = "s3cr3t=value; ünïcode"
    encrypted = chromium_encrypt(plain, password, iterations, ".example.com", version, prefix)
    key = derive_key(password, iterations)
    assert decrypt(encrypted, key, ".example.com", version) == plain


def test_a_known_vector_decrypts() -> None:
    # "peanuts", 1 iteration: the documented Linux v10 key.
    assert derive_key(b"peanuts", 1).hex() == "fd621fe5a2b402539dfa147ca9272778"


def test_the_wrong_key_is_reported_without_the_value() -> None:
    encrypted = chromium_encrypt("hidden", b"right", 1, "a.test", 24, b"v11")
    with pytest.raises(DecryptError) as caught:
        decrypt(encrypted, derive_key(b"wrong", 1), "a.test", 24)
    assert "wrong key" in str(caught.value) and "hidden" not in str(caught.value)


def test_a_value_moved_to_another_host_is_refused() -> None:
    encrypted = chromium_encrypt("bound", b"peanuts", 1, "bank.test", 24, b"v10")
    with pytest.raises(DecryptError, match="host hash"):
        decrypt(encrypted, derive_key(b"peanuts", 1), "evil.test", 24)


@pytest.mark.parametrize(
    ("domain", "wanted", "sent"),
    [
        ("app.example.com", "app.example.com", True),
        (".example.com", "app.example.com", True),  # a parent-domain cookie
        ("example.com", "app.example.com", False),  # host-only on the parent: not sent
        (".app.example.com", "example.com", True),  # a subdomain's cookie when asking for the site
        (".notexample.com", "example.com", False),
        ("example.com.evil.test", "example.com", False),
    ],
)
def test_domain_matching_includes_parent_domains(domain: str, wanted: str, sent: bool) -> None:
    assert sent_to({"domain": domain}, wanted) is sent


def test_the_macos_key_comes_from_the_keychain_through_security(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `security` is macOS's own tool: a stand-in that answers only the exact argument array.
    tool = tmp_path / "security"
    expected = "find-generic-password -w -s Chrome Safe Storage -a Chrome"
    tool.write_text(f'#!/bin/sh\n[ "$*" = "{expected}" ] && [ "$#" = 6 ] || exit 44\necho keychain-pw\n')
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(keys, "_KEYS", {})
    key = keys.key_for("v10", "chrome", ("Chrome Safe Storage", "Chrome"))
    assert key == derive_key(b"keychain-pw", 1003)
    encrypted = chromium_encrypt("mac-value", b"keychain-pw", 1003, ".example.com", 24, b"v10")
    assert decrypt(encrypted, key, ".example.com", 24) == "mac-value"


def test_a_missing_keyring_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(keys, "_KEYS", {})
    with pytest.raises(keys.KeyUnavailable, match="install secret-tool"):
        keys.key_for("v11", "chromium", ("", ""))
