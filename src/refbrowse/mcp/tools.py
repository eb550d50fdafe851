"""MCP tools generated from the registry, and tool calls turned back into `browse` argv.

The everyday verbs are tools of their own, with a JSON Schema built from the
command's arguments and flags; every other command is reached through one
`browse` tool that takes a command line, so the tool list stays small while
every command stays reachable.
"""

from __future__ import annotations

import json
import os
import shlex
from typing import Any

from refbrowse.errors import UsageError
from refbrowse.kinds import KIND_WORDS
from refbrowse.parse import arg_kind, flag_kind, repeated_group
from refbrowse.registry import COMMANDS, MCP_LEFT_OUT_FLAGS
from refbrowse.specs import CommandSpec, Kind

# The commands an agent uses on nearly every page get a tool of their own (the registry says which).
EVERYDAY = tuple(name for name, spec in COMMANDS.items() if spec.get("mcp_tool"))

# Commands that make no sense from inside an MCP server.
NOT_OVER_MCP = tuple(name for name, spec in COMMANDS.items() if spec.get("no_mcp"))

LONG_TAIL_TOOL = "browse"
# `connect --cdp` copies the session's cookies into a remote browser: over MCP only when the user says so.
MCP_CONNECT_ENV = "BROWSE_MCP_ALLOW_CONNECT"

# Permissions are the user's to grant, through the server's environment
# (BROWSE_ALLOW_FILE, BROWSE_ALLOWED_PATHS), not the model's to ask for.
PERMISSION_FLAGS = ("--allow-",)


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
    return metavar.removesuffix("...").strip("[]")


def arg_property(metavar: str) -> str:
    """The JSON property of a positional argument: `[SEL|PATH]` → `sel_or_path`."""
    if repeated_group((metavar,)):
        return "more"  # `[SEL TEXT]...`: more of the same, flat
    return _bare(metavar).lower().replace("|", "_or_").replace(",", "_")


def flag_property(flag: str) -> str:
    """The JSON property of a flag: `--max-tokens` → `max_tokens`, `-D` → `D`."""
    return flag.lstrip("-").replace("-", "_")


def kind_schema(kind: Kind) -> dict[str, Any]:
    """The JSON Schema of one value of a kind (see `refbrowse.kinds`)."""
    if isinstance(kind, str):
        meaning = KIND_WORDS[kind][1] if kind in KIND_WORDS else ""
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
        return (KIND_WORDS[kind][1] if kind in KIND_WORDS else "") or kind
    if kind[0] == "int":
        return "milliseconds" if kind[2] else "number"
    return str(kind[0])


def _arg_schema(spec: CommandSpec, metavar: str) -> dict[str, Any]:
    group = repeated_group((metavar,))
    if group:
        return {"type": "array", "items": {"type": "string"}, "description": ", ".join(group) + ", ..."}
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
        if not flag.startswith(PERMISSION_FLAGS) and flag not in MCP_LEFT_OUT_FLAGS:
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
            "command": {"type": "string", "description": "a command line, e.g. `back`"},
            "input": {"type": "string", "description": "stdin, for chain"},
        },
        "required": ["command"],
    }


def browse_tool_description() -> str:
    return "Any other command, or one with all its flags (`help CMD`): " + ", ".join(long_tail())


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
    check_words(words)
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
    stdin = arguments.get("input")
    stdin = stdin if isinstance(stdin, str) else None
    check_words(argv)
    if argv and argv[0] == "chain":
        for step in _chain_steps(stdin):
            check_words(step)
    return argv, stdin


def check_words(argv: list[str]) -> None:
    """Refuse over MCP what the model may not ask for: a permission flag, a command kept to shells.

    Every step of a `chain` is checked the same way as a command on its own.
    """
    if argv and argv[0] in NOT_OVER_MCP:
        raise UsageError(f"`{argv[0]}` is not available over MCP", "run it in a shell")
    if argv and argv[0] == "connect" and "--cdp" in argv and not os.environ.get(MCP_CONNECT_ENV):
        raise UsageError(
            "connect --cdp is not available over MCP: it carries the session's cookies to another browser",
            f"run it in a shell, or start the MCP server with {MCP_CONNECT_ENV}=1",
        )
    granted = [word for word in argv if word.startswith(PERMISSION_FLAGS)]
    if granted:
        raise UsageError(
            f"{granted[0]} is not available over MCP",
            "the user grants it in the server's environment (BROWSE_ALLOW_FILE, BROWSE_ALLOWED_PATHS)",
        )


def _chain_steps(stdin: str | None) -> list[list[str]]:
    """The steps of a chain's input as words; what is not a list of lists is left to the chain to refuse."""
    try:
        steps = json.loads(stdin or "[]")
    except ValueError:
        return []
    if not isinstance(steps, list):
        return []
    return [[str(word) for word in step] for step in steps if isinstance(step, list)]
