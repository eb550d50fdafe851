"""How long a command's steps may take: one settings object with a parent chain.

As playwright-python's `TimeoutSettings`: a value set on an object wins; a
navigation without its own value takes the object's default; else the parent
answers; at the root, the registry's `DEFAULTS`. The daemon holds the root
(actions from `BROWSE_TIMEOUT`, page loads from the registry); each request is a
child whose `--timeout` sets both.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbrowse.registry import DEFAULTS


@dataclass(frozen=True, slots=True)
class Timeouts:
    default_ms: int | None = None  # every step: an action, and a page load unless `navigation_ms` is set
    navigation_ms: int | None = None
    parent: Timeouts | None = None

    def action(self) -> int:
        if self.default_ms is not None:
            return self.default_ms
        return self.parent.action() if self.parent else DEFAULTS["action_ms"]

    def navigation(self) -> int:
        if self.navigation_ms is not None:
            return self.navigation_ms
        if self.default_ms is not None:
            return self.default_ms
        return self.parent.navigation() if self.parent else DEFAULTS["nav_ms"]

    def child(self, default_ms: int | None) -> Timeouts:
        """The settings of one request: its `--timeout`, if given, over these."""
        return Timeouts(default_ms, None, self)

    def longest(self) -> int:
        """The longest a single step may take: what a whole command's bound starts from."""
        return max(self.action(), self.navigation())
