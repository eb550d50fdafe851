"""How long an action waits for a page to answer: a stuck page to the cap, a page still at work longer."""

from __future__ import annotations

from refbrowse.daemon.action.answering import _AT_WORK_MS, AT_WORK_CAP_MS, CAP_MS, _capped


def test_a_page_that_stopped_changing_is_waited_for_up_to_the_cap() -> None:
    assert not _capped(CAP_MS / 1000 - 0.1, still_s=3.0)
    assert _capped(CAP_MS / 1000, still_s=_AT_WORK_MS / 1000)


def test_a_page_still_at_work_is_waited_for_up_to_the_longer_cap() -> None:
    assert not _capped(CAP_MS / 1000 + 2, still_s=0.2)  # it changed just now: a slow boot
    assert _capped(AT_WORK_CAP_MS / 1000, still_s=0.0)  # but never past the longer cap
