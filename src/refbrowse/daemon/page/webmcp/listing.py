"""Page tools in words: the compact list `tools` prints, the one-line mention, and a call's result.

The list reads like our snapshots, not like JSON Schema: a tool a line with
its one-line description and hints, then a line per parameter with its type,
whether it is required, and its own description. Every word of it comes from
the page; the caller fences it. `--json` gives the schemas themselves.
"""

from __future__ import annotations

import json
from typing import Any

from refbrowse.daemon.page.webmcp.model import ANNOTATIONS, PageTool

TOOLS_SHOWN = 60  # tools listed in text; `--json` has more
JSON_TOOLS = 500
PARAMS_SHOWN = 20
LINE_MAX = 160  # characters of a description on its line
MENTION_NAMES = 6  # names in the one-line mention of an arrival
RESULT_MAX = 20_000  # characters of a call's result printed


def one_line(text: str, limit: int = LINE_MAX) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def tool_lines(tools: list[PageTool], frame_urls: dict[str, str], main_frame: str) -> list[str]:
    lines: list[str] = []
    frame = main_frame
    for tool in tools[:TOOLS_SHOWN]:
        if tool.frame_id != frame:
            frame = tool.frame_id
            lines.append(f"in frame {frame_urls.get(frame, '(gone)')}:")
        lines += _one_tool(tool)
    return lines


def _one_tool(tool: PageTool) -> list[str]:
    hints = [ANNOTATIONS[a] for a in tool.annotations] + (["form"] if tool.form is not None else [])
    head = one_line(tool.name, 80) + (f" — {one_line(tool.description)}" if tool.description.strip() else "")
    lines = [head + (f" [{', '.join(hints)}]" if hints else "")]
    if tool.schema_note:
        return [*lines, f"  ({tool.schema_note})"]
    properties = (tool.schema or {}).get("properties")
    if not isinstance(properties, dict):
        return lines
    required = (tool.schema or {}).get("required")
    needed = set(required) if isinstance(required, list) else set()
    for name, schema in list(properties.items())[:PARAMS_SHOWN]:
        lines.append("  " + _parameter(str(name), schema, name in needed))
    if len(properties) > PARAMS_SHOWN:
        lines.append(f"  … {len(properties) - PARAMS_SHOWN} more parameters (`browse tools --json`)")
    return lines


def _parameter(name: str, schema: object, required: bool) -> str:
    spec = schema if isinstance(schema, dict) else {}
    text = f"{one_line(name, 60)}: {type_words(spec)}" + (" (required)" if required else "")
    described = spec.get("description")
    return text + (
        f" — {one_line(described, 100)}" if isinstance(described, str) and described.strip() else ""
    )


def type_words(spec: dict[str, Any]) -> str:
    """`string`, `integer`, `"1" | "2"`, `string[]`: the type of one parameter, briefly."""
    choices = spec.get("enum")
    if isinstance(choices, list) and choices:
        shown = " | ".join(one_line(json.dumps(c), 30) for c in choices[:8])
        return shown + (f" | … ({len(choices)} in all)" if len(choices) > 8 else "")
    kind = spec.get("type")
    if kind == "array":
        items = spec.get("items")
        return (type_words(items) if isinstance(items, dict) and "enum" not in items else "any") + "[]"
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind[:6])
    if isinstance(kind, str):
        return one_line(kind, 20)
    return "any"


def mention(tools: list[PageTool]) -> str:
    """The arrival's one line: `page tools: search_books, add_to_cart: `browse tools``."""
    names = [one_line(tool.name, 40) for tool in tools[:MENTION_NAMES]]
    more = f" and {len(tools) - MENTION_NAMES} more" if len(tools) > MENTION_NAMES else ""
    return f"page tools: {', '.join(names)}{more}: `browse tools`"


def tool_record(tool: PageTool, frame_urls: dict[str, str], main_frame: str) -> dict[str, Any]:
    """A tool under `tools --json`: the schema as the page gave it (bounded), the rest as listed."""
    record: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "input_schema": tool.schema,
        "annotations": [ANNOTATIONS[a] for a in tool.annotations],
        "declarative": tool.form is not None,
    }
    if tool.frame_id != main_frame:
        record["frame"] = frame_urls.get(tool.frame_id, "")
    if tool.schema_note:
        record["note"] = tool.schema_note
    return record


def output_text(output: object) -> str:
    """A tool's output as text: MCP-style content blocks joined, a plain string as it is, else JSON."""
    if output is None or output == []:
        return ""
    if isinstance(output, str):
        return _bounded(output)
    content = output.get("content") if isinstance(output, dict) else None
    if isinstance(content, list):
        return _bounded("\n".join(_block(block) for block in content))
    try:
        return _bounded(json.dumps(output, ensure_ascii=False))
    except (ValueError, RecursionError):
        return "(an output refbrowse cannot read)"


def structured(output: object) -> object:
    """What `--json` gives as the result: `structuredContent` when the tool gave one, else the output."""
    if isinstance(output, dict) and "structuredContent" in output:
        return output["structuredContent"]
    return output


def failed(output: object) -> bool:
    return isinstance(output, dict) and output.get("isError") is True


def _block(block: object) -> str:
    if not isinstance(block, dict):
        return str(block)
    if block.get("type") == "text":
        return str(block.get("text", ""))
    kind = block.get("mimeType") or block.get("type")
    return f"[{kind} content, not shown]"


def _bounded(text: str) -> str:
    if len(text) <= RESULT_MAX:
        return text
    return text[:RESULT_MAX] + f"\n… cut: {len(text) - RESULT_MAX:,} more characters"
