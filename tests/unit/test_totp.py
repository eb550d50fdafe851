"""One-time codes match RFC 6238's own test values (SHA-1) and the authenticator apps' defaults."""

from __future__ import annotations

import base64

import pytest

from refbrowse.daemon.services.vault.totp import secret_bytes, totp

RFC_SECRET = base64.b32encode(b"12345678901234567890").decode()


@pytest.mark.parametrize(
    ("at", "code"),
    [(59, "94287082"), (1111111109, "07081804"), (1234567890, "89005924"), (20000000000, "65353130")],
)
def test_codes_match_the_rfc_6238_test_values(at: int, code: str) -> None:
    assert totp(RFC_SECRET, at, digits=8) == code


def test_a_secret_as_sites_show_it_is_read_with_spaces_lower_case_and_no_padding() -> None:
    assert secret_bytes("jbsw y3dp ehpk 3pxp") == secret_bytes("JBSWY3DPEHPK3PXP")
    assert totp("jbsw y3dp ehpk 3pxp", 59) == totp("JBSWY3DPEHPK3PXP", 59)
    assert len(totp("JBSWY3DPEHPK3PXP")) == 6
