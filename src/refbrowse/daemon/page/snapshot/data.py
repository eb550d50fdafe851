"""A snapshot as structured data, for `browse snapshot --json`:

    {url, title, triage: {page_type, login_form, captcha, forms, fields, overlays},
     refs: [{ref, role, name, states}], text}

`refs` lists exactly the refs the text shows, in its order; `text` is the
snapshot as printed, without the untrusted-content fence (the result's
`output` keeps it).
"""

from __future__ import annotations

import re

from refbrowse.daemon.page.snapshot.nodes import shown_states
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.tree import Node

_REF = re.compile(r"(?<![\w@])@[ec]\d+\b")


def snapshot_data(snapshot: PageSnapshot, text: str) -> dict[str, object]:
    facts = snapshot.triage
    return {
        "url": facts.url,
        "title": facts.title,
        "triage": {
            "page_type": facts.page_type,
            "login_form": facts.login_form,
            "captcha": facts.captcha,
            "forms": facts.forms,
            "fields": facts.fields,
            "overlays": [{"kind": o.kind, "label": o.label} for o in facts.overlays],
        },
        "refs": _refs(snapshot, text),
        "text": text,
    }


def _refs(snapshot: PageSnapshot, text: str) -> list[dict[str, object]]:
    nodes = snapshot.nodes_by_ref()
    clickables = {str(ref): found for ref, found in snapshot.clickables}
    out: list[dict[str, object]] = []
    seen: set[str] = set()
    for ref in _REF.findall(text):
        if ref in seen:
            continue
        seen.add(ref)
        if ref in nodes:
            node = nodes[ref]
            out.append({"ref": ref, "role": node.role, "name": node.name, "states": states(node)})
        elif ref in clickables:
            found = clickables[ref]
            out.append({"ref": ref, "role": "clickable", "name": found.text, "states": []})
    return out


def states(node: Node) -> list[str]:
    """What the text shows in brackets: `checked`, `expanded=false`, `required`, `level=2`…"""
    return [state[1:-1] for state in shown_states(node)]
