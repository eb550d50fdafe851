"""What is said of a remote browser never shows its secrets (endpoints and errors are redacted),
and how long its DevTools may take to answer the daemon."""

from __future__ import annotations

import pytest

from refbrowse.daemon.core.browser.target import redact, scrub
from refbrowse.daemon.core.devtools.rawcdp import ANSWER_S, answer_s


def test_endpoints_are_redacted_wherever_they_are_shown() -> None:
    assert redact("wss://u:pw@chrome.browserless.io/chromium?token=abc&stealth=1") == (
        "wss://u:***@chrome.browserless.io/chromium?token=***&stealth=1"
    )
    assert (
        redact("ws://127.0.0.1:9/?launch-options=%7B%7D&apiKey=k")
        == "ws://127.0.0.1:9/?launch-options=%7B%7D&apiKey=***"
    )
    assert redact("ws://grid:4444/session/4f2a/se/cdp") == "ws://grid:4444/session/4f2a/se/cdp"
    said = scrub("connect ECONNREFUSED at ws://me:pw@h:1/x?token=abc&b=2")
    assert said == "connect ECONNREFUSED at ws://me:***@h:1/x?token=***&b=2"


def test_the_remote_browsers_answer_time_is_ten_seconds_unless_browse_cdp_timeout_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BROWSE_CDP_TIMEOUT", raising=False)
    assert answer_s() == ANSWER_S == 10.0
    monkeypatch.setenv("BROWSE_CDP_TIMEOUT", "3000")
    assert answer_s() == 3.0
    monkeypatch.setenv("BROWSE_CDP_TIMEOUT", "soon")
    assert answer_s() == ANSWER_S
