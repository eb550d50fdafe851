"""Static types for the registry's plain literals, the CLI's request and the result.

The CLI imports this only under TYPE_CHECKING (importing `typing` costs it ~6 ms);
the daemon imports it freely.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

# See `refbrowse.kinds`: a name such as "sel", or a tuple such as ("int", 1, None).
Kind = str | tuple[Any, ...]


class _CommandSpecBase(TypedDict):
    cat: str
    args: tuple[str, ...]
    flags: dict[str, tuple[str | None, str]]
    help: str


class CommandSpec(_CommandSpecBase, total=False):
    kinds: dict[str, Kind]  # argument name or flag -> kind, where the name does not say it
    about: str  # a paragraph for `browse help CMD`
    group: str  # the help section it is listed in instead of its category's (network, emulation…)
    example: str  # one command line that works, without the leading `browse`
    data: str  # the shape of the result's `data` field under `--json`, when the command gives one
    local: bool | str  # True: the CLI answers it; a module's name: that module's `run` does
    no_start: bool
    stdin: bool
    stdin_arg: str  # the argument that `-` reads from the CLI's stdin
    secrets_asked: tuple[tuple[str, str], ...]  # (FORM or "FORM --FLAG", what) read from stdin as secrets
    nested: bool  # runs other commands through dispatch, so the daemon does not hold the tab lock
    pure_read: bool  # only looks at the page: the tab's prepared snapshot survives it
    lockless: bool  # reads what the daemon holds of the tab: never waits for a command running on it
    heavy: bool  # may run a long script in the page: the tab guard waits longer before calling it stuck
    uncounted: bool  # not counted toward the handoff hint
    saves_state_itself: bool  # tells the login-state persister itself what it changed
    saves_images: bool  # may save PNGs, listed in the result's data["saved"]
    mcp_tool: bool  # an MCP tool of its own
    no_mcp: bool  # makes no sense from inside an MCP server
    unrecorded: bool  # a recorded test writes no step for it
    waits: bool  # may wait long: the MCP server runs it apart from short calls
    runs_page_code: bool  # a read that runs the agent's own code in the page
    media_feature: str  # the CSS media feature an emulation command sets
    consent: str  # what the consent gate looks at: "target", or the kind of consequence it always is
    forms: dict[str, tuple[str, ...]]  # first word -> the arguments that follow it (`mouse move X Y`)
    repeat: tuple[str, ...]  # flags that may be given more than once: their value is a list
    rules: tuple[tuple[str, ...], ...]  # which flags and arguments go together (see the registry)


class Request(TypedDict):
    command: str
    args: list[str]
    flags: dict[str, str | bool | list[str]]
    json: bool
    raw: bool
    session: str | None
    timeout: int | None
    stdin: str | None
    client: NotRequired[str]  # who sent it when not the CLI ("mcp"), for the activity page's feed
    argv_text: NotRequired[bool]  # the command's text came in the CLI's argv, not on stdin
    stdin_texts: NotRequired[list[int]]  # …but the texts at these places in args came on stdin (`-`)


class Result(TypedDict):
    ok: bool
    output: str
    error: str
    hint: str
    exit_code: int
    data: NotRequired[object]  # the command's structured value, for machine callers
    notes: NotRequired[list[str]]  # what the daemon did on its own since the last command (a tab reopened)
