"""What every section gets: the tools, the fixture server's address, the run counts."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.tool import Tool

OURS = "refbrowse"
BASE = "refbrowse (base)"  # another checkout, with `--base DIR`


@dataclass
class Context:
    base: str
    tools: dict[str, Tool]
    runs: int
    runs_warm: int
    docs: bool
    quick: bool = False
    notes: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path

    def pick(self, *names: str) -> list[str]:
        """The tools of this run among `names` (or all), refbrowse first."""
        chosen = [n for n in self.tools if not names or n in names]
        return sorted(chosen, key=lambda n: n != OURS)

    def restart(self, names: list[str]) -> None:
        """Fresh processes, so that peaks and caches belong to the section that follows."""
        for name in names:
            self.tools[name].stop()
        for name in names:
            self.tools[name].start()
