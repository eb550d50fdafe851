"""The activity page's parts that need no browser: its feed's history and its one-time codes."""

from __future__ import annotations

import time

import pytest

from refbrowse.daemon.services.activity.access import CODE_TTL_S, Access
from refbrowse.daemon.services.activity.feed import Event, Feed


def test_the_history_keeps_the_latest_events_and_numbers_them_in_order() -> None:
    feed = Feed(history=3)
    for number in range(5):
        feed.publish(_event(f"'n{number}'"))
    assert [(e.id, e.args) for e in feed.since(0)] == [(3, ("'n2'",)), (4, ("'n3'",)), (5, ("'n4'",))]
    assert [e.id for e in feed.since(4)] == [5]


def _event(arg: str) -> Event:
    return Event(0, 0.0, "cli", "default", 1, "js", (arg,), {}, "", 1, True, 0, "", "")


def test_a_code_works_once_and_not_after_it_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    access = Access()
    first, second = access.mint(), access.mint()
    assert access.redeem(first) is not None
    assert access.redeem(first) is None
    now = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: now + CODE_TTL_S + 1)
    assert access.redeem(second) is None
    assert access.redeem("made-up") is None
