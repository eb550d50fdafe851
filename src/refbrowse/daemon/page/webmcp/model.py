"""One page tool as refbrowse keeps it: the DevTools record, bounded.

Everything here comes from the page: a name, a description of 5 MB, a schema
that refers to itself. What is kept is cut to sizes an agent can read, and a
schema too large to show or check is left out with a note, never followed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from refbrowse.daemon.page.webmcp.watch import ToolSource

NAME_MAX = 200  # a longer name is refused: nobody can type it
DESCRIPTION_MAX = 2_000  # characters kept of a description
SCHEMA_MAX = 32_000  # characters of a schema's JSON kept; a larger one is left out
TOOLS_MAX = 2_000  # tools kept per tab; more are counted, not kept

# The DevTools annotation names, in the words `tools` prints.
ANNOTATIONS = {
    "readOnly": "read-only",
    "consequential": "consequential",
    "untrustedContent": "untrusted output",
    "autosubmit": "submits itself",
    "debugging": "debugging",
}


@dataclass(frozen=True, slots=True, eq=False)
class PageTool:
    name: str
    description: str
    schema: dict[str, Any] | None
    schema_note: str  # why the schema is not kept ("" when it is, or when the tool has none)
    annotations: tuple[str, ...]  # DevTools names of the hints set true
    frame_id: str
    form: int | None  # a declarative tool's form (its backend node id)
    source: ToolSource

    @property
    def key(self) -> tuple[str, str]:
        return (self.frame_id, self.name)

    @property
    def destructive(self) -> bool:
        """A call that acts for the person (books, pays, sends): what a consent gate asks about."""
        return "consequential" in self.annotations


def tool_from_event(raw: object, source: ToolSource) -> PageTool | None:
    """A tool of a `WebMCP.toolsAdded` event, bounded; None if it cannot be named or called."""
    if not isinstance(raw, dict):
        return None
    name, frame = raw.get("name"), raw.get("frameId")
    if not isinstance(name, str) or not name or len(name) > NAME_MAX or not isinstance(frame, str):
        return None
    description = raw.get("description")
    text = description[:DESCRIPTION_MAX] if isinstance(description, str) else ""
    schema, note = _bounded_schema(raw.get("inputSchema"))
    hints = raw.get("annotations")
    marks = tuple(k for k in ANNOTATIONS if isinstance(hints, dict) and hints.get(k) is True)
    form = raw.get("backendNodeId")
    return PageTool(name, text, schema, note, marks, frame, form if isinstance(form, int) else None, source)


def _bounded_schema(schema: object) -> tuple[dict[str, Any] | None, str]:
    if schema is None:
        return None, ""
    if not isinstance(schema, dict):
        return None, "its input schema is not a JSON object"
    try:
        size = len(json.dumps(schema))
    except (ValueError, RecursionError):
        return None, "its input schema cannot be read"
    if size > SCHEMA_MAX:
        return None, f"its input schema is {size:,} characters: too large to keep"
    return schema, ""
