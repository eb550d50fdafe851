"""A page tool's input from the command line, checked against the tool's schema before the call.

`tool NAME '{"q": "dune"}'` gives the input as one JSON object; `tool NAME
q=dune limit=3` as pairs, each value read as JSON unless the schema says the
field is a string (so `limit=3` is a number, `q=3` the text "3"). Chromium
does not check a call's input against the schema; a page's own code would
then meet `undefined` where it expects a field. So the check is ours, and a
missing or wrong field is a usage error that names it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from refbrowse.daemon.page.webmcp.model import PageTool
from refbrowse.errors import UsageError

if TYPE_CHECKING:
    import jsonschema  # type: ignore[import-untyped] # jsonschema ships no type hints

_QUOTE_MAX = 120  # characters of a page's field name or schema message quoted in an error


def parse_input(tool: PageTool, words: list[str]) -> dict[str, Any]:
    if not words:
        return {}
    if len(words) == 1 and words[0].lstrip().startswith("{"):
        return _json_object(tool, words[0])
    properties = _properties(tool)
    given: dict[str, Any] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise UsageError(
                f"page tool {tool.name}: {_cut(word)!r} is neither key=value nor a JSON object",
                f"run `browse tool {tool.name} key=value ...` or give one JSON object",
            )
        given[key] = _value(value, properties.get(key))
    return given


def check_input(tool: PageTool, given: dict[str, Any]) -> str:
    """Raise `UsageError` naming the first wrong field; "" when checked, else why it could not be."""
    if tool.schema is None:
        return tool.schema_note
    # Here, not at the top: ~25 ms of CPU that every daemon start paid, for the few pages with tools.
    import jsonschema
    import referencing.exceptions

    try:
        validator_class = jsonschema.validators.validator_for(
            tool.schema, default=jsonschema.Draft202012Validator
        )
        validator_class.check_schema(tool.schema)
        error = jsonschema.exceptions.best_match(validator_class(tool.schema).iter_errors(given))
    except (jsonschema.exceptions.SchemaError, referencing.exceptions.Unresolvable, RecursionError):
        return "its input schema is not one refbrowse can check: the input was sent unchecked"
    if error is not None:
        raise UsageError(f"page tool {tool.name}: {_field(error)}", "see its parameters: `browse tools`")
    return ""


def _field(error: jsonschema.exceptions.ValidationError) -> str:
    where = "/".join(str(part) for part in error.absolute_path)
    if error.validator == "required" and isinstance(error.validator_value, list):
        missing = [
            name
            for name in error.validator_value
            if isinstance(error.instance, dict) and name not in error.instance
        ]
        field = "/".join(filter(None, (where, str(missing[0]) if missing else "")))
        return f"{_cut(field)} is required"
    return f"{_cut(where) + ': ' if where else ''}{_cut(error.message)}"


def _json_object(tool: PageTool, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(
            f"page tool {tool.name}: the input is not JSON ({exc})", 'quote it: \'{"q": "dune"}\''
        ) from exc
    if not isinstance(value, dict):
        raise UsageError(
            f"page tool {tool.name}: the input must be a JSON object", 'for example \'{"q": "dune"}\''
        )
    return value


def _properties(tool: PageTool) -> dict[str, Any]:
    found = (tool.schema or {}).get("properties")
    return found if isinstance(found, dict) else {}


def _value(text: str, schema: object) -> Any:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind == "string" or (isinstance(kind, list) and "string" in kind):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _cut(text: str) -> str:
    return text if len(text) <= _QUOTE_MAX else text[: _QUOTE_MAX - 1] + "…"
