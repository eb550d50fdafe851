"""Short refs (`@e3`, `@c2`) and the per-tab map from them to page elements.

`parse_ref` accepts `@e3`, `e3` and `ref=e3`. Numbers are given per tab and
never reused within a tab. The snapshot service fills the map; a ref that is
not in it fails at once with what it was and how to get fresh refs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.async_api import Locator

from refbrowse.errors import StaleRef

_REF = re.compile(r"^(?:@|ref=)?([ec])([1-9][0-9]*)$")


@dataclass(frozen=True, slots=True)
class Ref:
    kind: str  # "e": from the accessibility tree; "c": a clickable found outside it
    number: int

    def __str__(self) -> str:
        return f"@{self.kind}{self.number}"


def parse_ref(text: str) -> Ref | None:
    match = _REF.match(text.strip())
    return Ref(match.group(1), int(match.group(2))) if match else None


class RefMap:
    """The refs of one tab. Empty until a snapshot fills it."""

    def __init__(self) -> None:
        self._locators: dict[Ref, Locator] = {}

    def locator(self, ref: Ref) -> Locator:
        found = self._locators.get(ref)
        if found is None:
            raise StaleRef(
                f"{ref} is not in the latest snapshot of this tab",
                "run `browse snapshot -i` to get current refs",
            )
        return found
