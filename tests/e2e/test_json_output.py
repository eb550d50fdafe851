"""`--json` is structured: snapshot, js, eval and chain give `data`; errors give error, hint, exit_code."""

from __future__ import annotations

import json

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

FORM = """<title>Form</title><h1>Order</h1>
<input type="checkbox" aria-label="Gift wrap" checked>
<button disabled>Options</button><a href="/x">Help</a>"""


def test_snapshot_data_has_url_title_triage_refs_and_text(workspace: Workspace, site: Site) -> None:
    url = site.page("/json/form", FORM)
    workspace.ok("goto", url)
    result = workspace.run("--json", "snapshot", "-i").json
    data = result["data"]
    assert isinstance(data, dict)
    assert data["url"] == url and data["title"] == "Form"
    assert data["triage"] == {
        "page_type": data["triage"]["page_type"],
        "login_form": False,
        "captcha": False,
        "forms": 0,
        "fields": 1,
        "overlays": [],
    }
    assert data["text"] == strip_fence(str(result["output"]))
    refs = {r["name"]: r for r in data["refs"]}
    assert refs["Gift wrap"]["role"] == "checkbox" and refs["Gift wrap"]["states"] == ["checked"]
    assert refs["Options"]["states"] == ["disabled"]
    assert refs["Help"]["role"] == "link"
    for ref in data["refs"]:  # exactly the refs the text shows, in its order
        assert f"{ref['ref']}" in data["text"]
    shown = [word for word in data["text"].split() if word.startswith("@e")]
    assert [r["ref"] for r in data["refs"]] == shown


def test_js_gives_the_json_value(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/json/js", "<title>J</title>"))
    assert workspace.run("--json", "js", "({a: [1, 2], b: null, c: 'x'})").json["data"] == {
        "value": {"a": [1, 2], "b": None, "c": "x"}
    }
    assert workspace.run("--json", "js", "document.title").json["data"] == {"value": "J"}
    assert workspace.run("--json", "js", "undefined").json["data"] == {"value": None}
    assert workspace.run("--json", "js", "40 + 2").json["data"] == {"value": 42}
    plain = workspace.ok("js", "40 + 2")
    assert strip_fence(plain) == "42" and "data" not in plain


def test_chain_gives_one_result_per_step(workspace: Workspace, site: Site) -> None:
    url = site.page("/json/chain", "<title>C</title><p>hi</p>")
    steps = json.dumps([["goto", url], ["js", "document.title"], ["url"]])
    result = workspace.run("--json", "chain", input=steps).json
    data = result["data"]
    assert isinstance(data, dict)
    assert [s["step"] for s in data["steps"]] == [["goto", url], ["js", "document.title"], ["url"]]
    assert data["steps"][1]["data"] == {"value": "C"}
    assert data["steps"][2]["output"].strip() == url


SAVE = """<title>Save</title><form action="/json/saved"><label>Name <input name="n" required></label>
<button>Save</button></form>
<button onclick="document.getElementById('s').textContent = 'Draft kept'">Keep draft</button>
<p role="status" id="s"></p>"""


def test_actions_give_their_effects_as_fields(workspace: Workspace, site: Site) -> None:
    saved = site.page("/json/saved", "<title>Saved</title><p role=alert>Saved</p>")
    workspace.ok("goto", site.page("/json/save", SAVE))
    blocked = workspace.run("--json", "click", "text=Save").json
    assert blocked["data"]["messages"][0]["kind"] == "invalid", blocked
    assert blocked["data"]["messages"][0]["label"] == "Name" and "navigation" not in blocked["data"]
    kept = workspace.run("--json", "click", "text=Keep draft").json["data"]
    assert {"event": "appeared", "kind": "status", "label": "", "text": "Draft kept"} in kept["messages"]
    workspace.ok("fill", "input", "Ann")
    went = workspace.run("--json", "click", "text=Save").json["data"]
    assert went["navigation"] == {"kind": "navigated", "url": saved + "?n=Ann"}
    assert went["url"] == saved + "?n=Ann"
    assert {"event": "appeared", "kind": "alert", "label": "", "text": "Saved"} in went["messages"]


def test_errors_give_error_hint_and_exit_code(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.page("/json/err", "<p>x</p>"))
    page_error = workspace.run("--json", "click", "#missing")
    assert page_error.code == 1
    body = page_error.json
    assert body["ok"] is False and body["exit_code"] == 1 and body["error"] and body["hint"]
    usage = workspace.run("--json", "gotoo")
    assert usage.code == 2 and usage.json["exit_code"] == 2 and "did you mean" in str(usage.json["hint"])
