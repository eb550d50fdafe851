"""One-line warnings the daemon owes its caller: handed to the caller of the next command that ends."""

from __future__ import annotations


class Notices:
    def __init__(self) -> None:
        self._pending: list[str] = []

    def add(self, text: str) -> None:
        self._pending.append(text)

    def take(self) -> list[str]:
        taken, self._pending = self._pending, []
        return taken
