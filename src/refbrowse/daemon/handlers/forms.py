"""Read: `forms`, every form and its fields, for an agent about to fill one.

Passwords are redacted. Fields outside any form are listed under a form of
their own, since many apps post with scripts and have no <form> at all.
"""

from __future__ import annotations

from typing import Any

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.envelope import fence

_FORMS_JS = script("forms")


def describe_field(field: dict[str, Any]) -> str:
    kind = field["tag"] + (f"[type={field['type']}]" if field["type"] else "")
    parts = [kind]
    for key in ("name", "id", "label", "placeholder"):
        if field[key]:
            parts.append(f"{key}={_quote(field[key])}")
    if field["tag"] == "select":
        parts.append("options: " + ", ".join(_option(*option) for option in field["options"]))
    elif field["checked"] is not None:
        parts.append("checked" if field["checked"] else "unchecked")
    elif field["value"]:
        parts.append(f"value={_quote(field['value'])}")
    parts += [flag for flag in ("required", "disabled") if field[flag]]
    return "  " + " ".join(parts)


def _option(value: str, label: str, selected: bool) -> str:
    text = _quote(value) if label == value else f"{_quote(value)} {_quote(label)}"
    return text + (" (selected)" if selected else "")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_forms(forms: list[dict[str, Any]]) -> str:
    if not forms:
        return "(no forms)"
    blocks = []
    for number, form in enumerate(forms, 1):
        head = f"form {number}" + (f" {_quote(form['name'])}" if form["name"] else "")
        if form["action"]:
            head += f"  {form['method']} {form['action']}"
        fields = [describe_field(field) for field in form["fields"]] or ["  (no fields)"]
        blocks.append("\n".join([head, *fields]))
    return "\n\n".join(blocks)


@handler("forms")
async def forms(call: Call) -> str:
    found = await call.page.evaluate(_FORMS_JS)
    return fence(format_forms(found), call.page.url, call.raw)
