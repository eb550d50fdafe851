"""MCP tools generated from the registry, and tool calls turned back into `browse` argv.

The everyday verbs are tools of their own, with a JSON Schema built from the
command's arguments and flags; every other command is reached through one
`browse` tool that takes a command line, so the tool list stays small while
every command stays reachable.
"""

from __future__ import annotations

import shlex
from typing import Any

from refbrowse.errors import UsageError
from refbrowse.parse import arg_kind, flag_kind
from refbrowse.registry import COMMANDS
from refbrowse.specs import CommandSpec, Kind

# The commands an agent uses on nearly every page get a tool of their own.
EVERYDAY = (
    "goto",
    "snapshot",
    "click",
    "fill",
    "select",
    "press",
    "text",
    "screenshot",
    "tabs",
    "wait",
)

# Commands that make no sense from inside an MCP server.
NOT_OVER_MCP = ("mcp", "skill", "install", "doctor", "demo")

LONG_TAIL_TOOL = "browse"

# Permissions are the user's to grant, through the server's environment
# (BROWSE_ALLOW_FILE, BROWSE_ALLOWED_PATHS), not the model's to ask for.
PERMISSION_FLAGS = ("--allow-",)

# Flags an agent rarely needs over MCP, left out of the tools' schemas to keep the
# tool list small; the `browse` tool still takes them (`click @e3 --no-wait`).
RARE_FLAGS = ("--no-wait", "--settle", "--all", "-a", "-o")

# What a value of each simple kind looks like, for the schema's description.
KIND_MEANINGS = {
    "endpoint": "http(s):// or ws(s):// address",
    "sel": "@eN ref or CSS selector",
    "path": "file path",
    "key": "key or chord: Enter, Tab, Control+A",
    "json": "JSON value",
    "size": "WIDTHxHEIGHT, e.g. 1280x800",
    "box": "X,Y,W,H in CSS pixels",
}


def first_clause(text: str) -> str:
    """A help line up to its first aside: `load a page (http, …)` → `load a page`.

    The tool list is read into every session, so it carries the gist; `help CMD` has the rest.
    """
    cuts = [i for i in (text.find(" ("), text.find("; ")) if i > 0]
    colon = text.find(": ")
    if colon >= 8:
        cuts.append(colon)
    return text[: min(cuts)] if cuts else text


def _bare(metavar: str) -> str:
    return metavar.strip("[]").removesuffix("...")


def arg_property(metavar: str) -> str:
    """The JSON property of a positional argument: `[SEL|PATH]` → `sel_or_path`."""
    return _bare(metavar).lower().replace("|", "_or_").replace(",", "_")


def flag_property(flag: str) -> str:
    """The JSON property of a flag: `--max-tokens` → `max_tokens`, `-D` → `D`."""
    return flag.lstrip("-").replace("-", "_")


def kind_schema(kind: Kind) -> dict[str, Any]:
    """The JSON Schema of one value of a kind (see `refbrowse.kinds`)."""
    if isinstance(kind, str):
        meaning = KIND_MEANINGS.get(kind)
        return {"type": "string", "description": meaning} if meaning else {"type": "string"}
    head = kind[0]
    if head in ("int", "number"):
        schema: dict[str, Any] = {"type": "integer" if head == "int" else "number"}
        if kind[1] is not None:
            schema["minimum"] = kind[1]
        if kind[2] is not None:
            schema["maximum"] = kind[2]
        return schema
    if head == "enum":
        return {"type": "string", "enum": list(kind[1:])}
    # "alt": the CLI takes a word and decides which kind it is, so the tool takes a string.
    meanings = [_alt_meaning(k) for k in kind[1:]]
    return {"type": "string", "description": " or ".join(meanings)}


def _alt_meaning(kind: Kind) -> str:
    if isinstance(kind, str):
        return KIND_MEANINGS.get(kind, kind)
    if kind[0] == "int":
        return "milliseconds" if kind[2] else "number"
    return str(kind[0])


def _arg_schema(spec: CommandSpec, metavar: str) -> dict[str, Any]:
    schema = kind_schema(arg_kind(spec, metavar))
    if metavar.endswith("..."):
        return {"type": "array", "items": schema}
    return schema


def _flag_schema(spec: CommandSpec, flag: str) -> dict[str, Any]:
    kind = flag_kind(spec, flag)
    text = first_clause(spec["flags"][flag][1])
    schema = {"type": "boolean"} if kind is None else kind_schema(kind)
    return {**schema, "description": text}


def input_schema(name: str) -> dict[str, Any]:
    spec = COMMANDS[name]
    properties: dict[str, Any] = {}
    required: list[str] = []
    for metavar in spec["args"]:
        prop = arg_property(metavar)
        properties[prop] = _arg_schema(spec, metavar)
        if not metavar.startswith("["):
            required.append(prop)
    for flag in spec["flags"]:
        if not flag.startswith(PERMISSION_FLAGS) and flag not in RARE_FLAGS:
            properties[flag_property(flag)] = _flag_schema(spec, flag)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def long_tail() -> list[str]:
    return [n for n in COMMANDS if n not in EVERYDAY and n not in NOT_OVER_MCP]


def browse_tool_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "command line without `browse`, e.g. `back`"},
            "input": {"type": "string", "description": "stdin, for chain"},
        },
        "required": ["command"],
    }


def browse_tool_description() -> str:
    return (
        "Run any other refbrowse command, or a tool's command with more flags; `help CMD` describes one. "
        "Commands: " + ", ".join(long_tail())
    )


def tool_specs() -> list[tuple[str, str, dict[str, Any]]]:
    """(name, description, input schema) of every tool, the everyday verbs first."""
    tools = [
        (name, first_clause(COMMANDS[name]["help"]), input_schema(name))
        for name in EVERYDAY
        if name in COMMANDS
    ]
    tools.append((LONG_TAIL_TOOL, browse_tool_description(), browse_tool_schema()))
    return tools


def to_argv(tool: str, arguments: dict[str, Any]) -> tuple[list[str], str | None]:
    """The `browse` argv a tool call stands for, and its stdin; bad calls raise `UsageError`."""
    if tool == LONG_TAIL_TOOL:
        return _line_argv(arguments)
    if tool not in EVERYDAY or tool not in COMMANDS:
        raise UsageError(f"unknown tool: {tool}", f"the tools are {', '.join(EVERYDAY)} and {LONG_TAIL_TOOL}")
    spec = COMMANDS[tool]
    known = set(input_schema(tool)["properties"])
    unknown = sorted(set(arguments) - known)
    if unknown:
        raise UsageError(
            f"unknown argument for {tool}: {', '.join(unknown)}", f"{tool} takes: {', '.join(sorted(known))}"
        )
    words = [tool, *_flag_words(spec["flags"], arguments)]
    positional = _positional_words(spec["args"], arguments)
    return [*words, "--", *positional] if positional else words, None


def _flag_words(flags: dict[str, tuple[str | None, str]], arguments: dict[str, Any]) -> list[str]:
    words: list[str] = []
    for flag, (metavar, _text) in flags.items():
        value = arguments.get(flag_property(flag))
        if value is None or value is False:
            continue
        words += [flag] if metavar is None else [flag, str(value)]
    return words


def _positional_words(metavars: tuple[str, ...], arguments: dict[str, Any]) -> list[str]:
    words: list[str] = []
    for metavar in metavars:
        value = arguments.get(arg_property(metavar))
        if value is None:
            continue
        words += [str(v) for v in value] if isinstance(value, list) else [str(value)]
    return words


def _line_argv(arguments: dict[str, Any]) -> tuple[list[str], str | None]:
    line = arguments.get("command")
    if not isinstance(line, str) or not line.strip():
        raise UsageError("the browse tool needs a command", 'for example: {"command": "help"}')
    try:
        argv = shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"cannot split the command line: {exc}", "balance the quotes") from exc
    if argv[0] == "browse":
        argv = argv[1:]
    if argv and argv[0] in NOT_OVER_MCP:
        raise UsageError(f"`{argv[0]}` is not available over MCP", "run it in a shell")
    granted = [word for word in argv if word.startswith(PERMISSION_FLAGS)]
    if granted:
        raise UsageError(
            f"{granted[0]} is not available over MCP",
            "the user grants it in the server's environment (BROWSE_ALLOW_FILE, BROWSE_ALLOWED_PATHS)",
        )
    stdin = arguments.get("input")
    return argv, stdin if isinstance(stdin, str) else None
