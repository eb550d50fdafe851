"""The demo page that ships with refbrowse, for `make demo`."""

from __future__ import annotations

from pathlib import Path

PAGE = Path(__file__).with_name("signup.html")


def url() -> str:
    return PAGE.as_uri()
