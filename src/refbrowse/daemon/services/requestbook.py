"""The requests behind the network log's numbers, so `request N` can show one of them in full.

Each session numbers its finished and failed requests from 1, in the order
Chromium reports them; the number is printed on the `network` line. The newest
`KEEP` Playwright `Request` objects of each session are kept (headers and
bodies are asked for only when `request N` wants them); an older number says
it is gone rather than showing another request.
"""

from __future__ import annotations

from collections import OrderedDict

from playwright.async_api import Request

KEEP = 500  # requests held per session: their headers and bodies stay with Chromium until asked for


class RequestBook:
    def __init__(self, keep: int = KEEP) -> None:
        self._keep = keep
        self._numbers: dict[str, int] = {}  # session -> the last number given
        self._held: dict[str, OrderedDict[int, Request]] = {}

    def number(self, session: str, request: Request) -> int:
        """Give `request` the session's next number and hold it."""
        n = self._numbers.get(session, 0) + 1
        self._numbers[session] = n
        held = self._held.setdefault(session, OrderedDict())
        held[n] = request
        while len(held) > self._keep:
            held.popitem(last=False)
        return n

    def get(self, session: str, n: int) -> Request | None:
        held = self._held.get(session)
        return held.get(n) if held else None

    def last(self, session: str) -> int:
        """The newest number given in the session (0: none yet)."""
        return self._numbers.get(session, 0)

    def oldest(self, session: str) -> int:
        held = self._held.get(session)
        return next(iter(held)) if held else 0
