"""Read: `forms`, every form and its fields, for an agent about to fill one.

Passwords are redacted. Fields outside any form are listed under a form of
their own, since many apps post with scripts and have no <form> at all.
"""

from __future__ import annotations

from typing import Any

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.envelope import fence

_FORMS_JS = """() => {
  const FIELDS = 'input:not([type=hidden]), select, textarea, button';
  const labelOf = el => {
    if (el.labels && el.labels.length) return el.labels[0].innerText;
    return el.getAttribute('aria-label') || el.title || '';
  };
  const describe = el => {
    const tag = el.tagName.toLowerCase();
    const type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase()
      : tag === 'button' ? (el.getAttribute('type') || 'submit').toLowerCase() : '';
    const field = {tag, type, name: el.name || '', id: el.id || '',
      label: labelOf(el).replace(/\\s+/g, ' ').trim(),
      placeholder: el.getAttribute('placeholder') || '', required: !!el.required,
      disabled: !!el.disabled, value: '', checked: null, options: []};
    if (tag === 'select') {
      field.options = Array.from(el.options).map(o => [o.value, o.label, o.selected]);
    } else if (type === 'checkbox' || type === 'radio') {
      field.checked = el.checked; field.value = el.value;
    } else if (tag === 'button') {
      field.value = el.innerText.trim();
    } else {
      field.value = type === 'password' ? (el.value ? '(redacted)' : '') : el.value;
    }
    return field;
  };
  const forms = Array.from(document.forms).map(f => ({
    name: f.getAttribute('name') || f.id || '', action: f.action,
    method: (f.getAttribute('method') || 'get').toUpperCase(),
    fields: Array.from(f.querySelectorAll(FIELDS)).map(describe)}));
  const loose = Array.from(document.querySelectorAll(FIELDS)).filter(el => !el.form && !el.closest('form'));
  if (loose.length) {
    forms.push({name: '(fields outside any form)', action: '', method: '', fields: loose.map(describe)});
  }
  return forms;
}"""


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
