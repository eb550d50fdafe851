"""The page's own tools for agents (WebMCP).

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.kinds.bounds import MAX_COUNT
from refbrowse.registry.common import SETTLE_FLAGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
    # the page's own tools for agents (WebMCP)
    "tools": {
        "cat": "read",
        "pure_read": True,
        "lockless": True,
        "args": (),
        "flags": {},
        "about": (
            "Pages offer tools with `document.modelContext.registerTool` or a `<form toolname=...>`."
            " Each line: the tool, its description and hints (read-only, consequential, form), then its"
            " parameters with their types and which are required; tools of other frames under their URL."
            " `--json` gives the input schemas."
        ),
        "help": "the current page's own tools for agents (WebMCP), in every frame",
        "data": "{tools: [{name, description, input_schema, annotations, declarative, frame?}], url}",
    },
    "tool": {
        "cat": "write",
        "consent": "tools",
        "waits": True,
        "args": ("NAME", "[INPUT...]"),
        "flags": {
            "--detach": (None, "leave a call that outlives the timeout running; `tool-result ID` fetches it"),
            **SETTLE_FLAGS,
        },
        "about": (
            'INPUT is one JSON object (\'{"q": "dune"}\') or key=value pairs (values read as JSON'
            " unless the field is a string). It is checked against the tool's schema first. The call"
            " runs within the action timeout (`--timeout MS` for more); its result is page content."
            " A form tool's form is filled and submitted, and the report shows where it went."
        ),
        "example": "tool search_books q=dune",
        "help": "call one of the page's own tools (`browse tools`) and report its result and what changed",
        "data": "{tool, result, text, running?, ...the action's report}",
    },
    "tools-wait": {
        "cat": "meta",
        "no_start": True,
        "no_mcp": True,
        "waits": True,
        "unrecorded": True,
        "uncounted": True,
        "args": ("[MARK]",),
        "flags": {},
        "about": (
            "MARK is what the last answer printed (`TAB:VERSION`); without it, the answer is at once."
            " Waits up to 25 s. `browse mcp` uses it to tell its clients that their tool list changed."
        ),
        "help": "wait until the current tab's page tools may have changed (a navigation, a registration)",
        "data": "{mark, changed}",
    },
    "tool-result": {
        "cat": "read",
        "waits": True,
        "unrecorded": True,
        "args": ("ID",),
        "flags": {},
        "kinds": {"ID": ("int", 1, MAX_COUNT)},
        "example": "tool-result 1",
        "help": "the result of a page tool call left running (`tool --detach`), waiting up to the timeout",
    },
    "tool-cancel": {
        "cat": "write",
        "unrecorded": True,
        "args": ("ID",),
        "flags": {},
        "kinds": {"ID": ("int", 1, MAX_COUNT)},
        "example": "tool-cancel 1",
        "help": "cancel a page tool call left running (`tool --detach`)",
    },
}
