"""Static types for the registry's plain literals and the CLI's request.

The CLI imports this only under TYPE_CHECKING (importing `typing` costs it ~6 ms);
the daemon imports it freely.
"""

from __future__ import annotations

from typing import TypedDict


class _CommandSpecBase(TypedDict):
    cat: str
    args: tuple[str, ...]
    flags: dict[str, tuple[str | None, str]]
    help: str


class CommandSpec(_CommandSpecBase, total=False):
    local: bool
    no_start: bool
    stdin: bool
    nested: bool  # runs other commands through dispatch, so the daemon does not hold the tab lock


class Request(TypedDict):
    command: str
    args: list[str]
    flags: dict[str, str | bool]
    json: bool
    raw: bool
    session: str | None
    timeout: int | None
    stdin: str | None
