"""Fence text that came from a page as untrusted content.

Everything a page controls (its text, HTML, link labels, titles) reaches the
agent between two marker lines that name the source URL and carry a nonce
drawn for this response, so a page cannot print a convincing end marker.
`--raw` drops the fence for scripts.
"""

from __future__ import annotations

import secrets


def fence(text: str, url: str, raw: bool = False) -> str:
    if raw:
        return text
    nonce = secrets.token_hex(4)  # 32 bits: unguessable for one response, short in every one
    body = text if text.endswith("\n") or not text else text + "\n"
    return (
        f"<<<untrusted page content from {url} nonce={nonce}>>>\n"
        f"{body}"
        f"<<<end untrusted page content nonce={nonce}>>>"
    )
