"""How long the tab guard waits for a page before its tab counts as stuck."""

from __future__ import annotations

import pytest

from refbrowse.daemon.page.tabguard import PROBE_TIMEOUT_S, probe_timeout_s


def test_a_page_has_twenty_seconds_to_answer_unless_browse_stuck_timeout_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BROWSE_STUCK_TIMEOUT", raising=False)
    assert probe_timeout_s() == PROBE_TIMEOUT_S == 20.0
    monkeypatch.setenv("BROWSE_STUCK_TIMEOUT", "5000")
    assert probe_timeout_s() == 5.0
    monkeypatch.setenv("BROWSE_STUCK_TIMEOUT", "later")
    assert probe_timeout_s() == PROBE_TIMEOUT_S
