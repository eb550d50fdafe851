"""The page's own tools (WebMCP): listed in every frame, called with checked input, bounded when hostile."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SHOP = """<!doctype html><meta charset="utf-8"><title>Shop</title><h1>Shop</h1>
<script>
const mc = document.modelContext;
mc.registerTool({name: "search_books", description: "Search the catalogue",
  inputSchema: {type: "object", properties: {q: {type: "string", description: "words to find"},
                limit: {type: "integer"}}, required: ["q"]},
  annotations: {readOnlyHint: true},
  execute: async ({q, limit}) => { document.querySelector("h1").textContent = "Results for " + q;
    return {content: [{type: "text", text: `${limit ?? 10} books about ${q}`}]}; }});
mc.registerTool({name: "thrower", description: "always fails",
  execute: async () => { throw new Error("kaboom"); }});
mc.registerTool({name: "later", description: "answers after a while",
  execute: () => new Promise(done => setTimeout(() => done("late answer"), 1500))});
mc.registerTool({name: "never", description: "never answers", execute: () => new Promise(() => {})});
</script>
<iframe allow="tools" src="FRAME"></iframe>"""

FRAME = """<!doctype html><meta charset="utf-8"><script>
document.modelContext.registerTool({name: "frame_tool", description: "lives in a frame",
  annotations: {consequentialHint: true}, execute: () => "from the frame"});
</script>framed"""

FORM = """<!doctype html><meta charset="utf-8"><title>Cart</title>
<form toolname="add_to_cart" tooldescription="Add a book to the cart" action="/tools/added">
<label>Book <input name="book" required toolparamdescription="the book's id"></label>
<button>Add</button></form>"""

HOSTILE = """<!doctype html><meta charset="utf-8"><title>Hostile</title><script>
const mc = document.modelContext;
for (let i = 0; i < 1000; i++) mc.registerTool({name: "t" + i, description: "tool " + i, execute: () => "x"});
mc.registerTool({name: "huge", description: "y".repeat(5_000_000), execute: () => "z".repeat(3_000_000)});
mc.registerTool({name: "selfref", description: "schema refers to itself",
  inputSchema: {type: "object", properties: {child: {$ref: "#"}, n: {type: "integer"}}},
  execute: () => "ok"});
mc.registerTool({name: "leave", description: "navigates away mid-call",
  execute: () => new Promise(() => setTimeout(() => { location.href = "/tools/added"; }, 100))});
</script><h1>Hostile</h1>"""


LEAVING_FRAME = """<!doctype html><meta charset="utf-8"><script>
document.modelContext.registerTool({name: "frame_leave", description: "its frame navigates away mid-call",
  execute: () => new Promise(() => setTimeout(() => { location.href = "/tools/added"; }, 100))});
document.modelContext.registerTool({name: "frame_slow", description: "never answers",
  execute: () => new Promise(() => {})});
</script>leaving"""


@pytest.fixture(scope="module")
def shop(site: Site) -> str:
    frame = site.page("/tools/frame", FRAME).replace(
        "127.0.0.1", "localhost"
    )  # another site: its own process
    site.page("/tools/added", "<!doctype html><title>Added</title><p>Added to the cart</p>")
    site.page("/tools/form", FORM)
    site.page("/tools/hostile", HOSTILE)
    leaving = site.page("/tools/leaving-frame", LEAVING_FRAME).replace("127.0.0.1", "localhost")
    site.page(
        "/tools/leaving",
        f'<!doctype html><title>Leaving</title><iframe allow="tools" src="{leaving}"></iframe>',
    )
    return site.page("/tools/shop", SHOP.replace("FRAME", frame))


def test_tools_lists_every_frames_tools_with_parameters_and_hints(workspace: Workspace, shop: str) -> None:
    arrived = workspace.ok("goto", shop)
    assert "page tools: later, never, search_books, thrower, frame_tool: `browse tools`" in arrived
    listed = workspace.ok("tools")
    assert listed.startswith("5 page tools: `browse tool NAME key=value ...` calls one\n")
    body = strip_fence(listed.split("\n", 1)[1])
    assert "search_books — Search the catalogue [read-only]" in body
    assert "  q: string (required) — words to find\n  limit: integer" in body
    assert "in frame http://localhost:" in body
    assert body.endswith("frame_tool — lives in a frame [consequential]")
    schemas = {t["name"]: t for t in workspace.run("tools", "--json").json["data"]["tools"]}  # type: ignore[index]
    assert schemas["search_books"]["input_schema"]["required"] == ["q"]
    assert schemas["frame_tool"]["frame"].startswith("http://localhost:")
    assert "page tools (WebMCP): on" in workspace.ok("status")
    view = workspace.ok("snapshot", "-i")
    assert (
        view.splitlines()[-2] == "page tools: later, never, search_books, thrower, frame_tool: `browse tools`"
    )


def test_a_call_prints_its_fenced_result_and_what_changed_on_the_page(
    workspace: Workspace, shop: str
) -> None:
    workspace.ok("goto", shop)
    called = workspace.ok("tool", "search_books", "q=dune", "limit=3")
    assert called.startswith("Called page tool search_books\n")
    result = called.split("\n", 1)[1].split("\n<<<untrusted", 1)[0]  # its own fence, before the report's
    assert strip_fence(result) == "3 books about dune"
    assert '+- heading "Results for dune"' in called
    as_json = workspace.run("tool", "search_books", '{"q": "emma"}', "--json").json
    assert as_json["data"]["result"] == {"content": [{"type": "text", "text": "10 books about emma"}]}  # type: ignore[index]
    assert "from the frame" in workspace.ok("tool", "frame_tool")


def test_input_is_checked_against_the_schema_before_the_call(workspace: Workspace, shop: str) -> None:
    workspace.ok("goto", shop)
    missing = workspace.run("tool", "search_books", "limit=3")
    assert missing.code == 2 and "page tool search_books: q is required" in missing.err
    wrong = workspace.run("tool", "search_books", "q=dune", "limit=many")
    assert wrong.code == 2 and "limit: 'many' is not of type 'integer'" in wrong.err
    assert workspace.ok("js", "document.querySelector('h1').textContent").count("Shop") == 1  # never called
    unknown = workspace.run("tool", "no_such_tool")
    assert unknown.code == 1 and "its tools: later, never, search_books" in unknown.err


def test_a_tool_that_throws_fails_clearly_and_the_daemon_lives(workspace: Workspace, shop: str) -> None:
    workspace.ok("goto", shop)
    thrown = workspace.run("tool", "thrower")
    assert thrown.code == 1 and "page tool thrower failed: Error: kaboom" in thrown.err
    assert "search_books" in workspace.ok("tools")


def test_a_slow_tool_times_out_or_is_left_running_and_fetched(workspace: Workspace, shop: str) -> None:
    workspace.ok("goto", shop)
    timed_out = workspace.run("tool", "never", "--timeout", "300")
    assert timed_out.code == 4 and "did not answer within 300 ms: the call was cancelled" in timed_out.err
    left = workspace.ok("tool", "later", "--timeout", "200", "--detach")
    assert "page tool later is still running after 200 ms: call " in left
    number = left.split("call ")[1].split(" ")[0]
    fetched = workspace.ok("tool-result", number, "--timeout", "10000")
    assert "late answer" in strip_fence(fetched.split("\n", 1)[1])
    assert workspace.run("tool-result", number).code == 1  # fetched once: forgotten
    stuck = workspace.ok("tool", "never", "--timeout", "200", "--detach").split("call ")[1].split(" ")[0]
    assert workspace.ok("tool-cancel", stuck).startswith(f"cancelled page tool call {stuck} (never)")


def test_a_form_tool_fills_and_submits_its_form_and_the_report_shows_the_navigation(
    workspace: Workspace, site: Site, shop: str
) -> None:
    workspace.ok("goto", site.url("/tools/form"))
    listed = strip_fence(workspace.ok("tools").split("\n", 1)[1])
    assert listed == "add_to_cart — Add a book to the cart [form]\n  book: string (required) — the book's id"
    called = workspace.ok("tool", "add_to_cart", "book=42")
    assert f"navigated to {site.url('/tools/added?book=42')}" in called
    assert 'title: "Added"' in called


def test_a_hostile_pages_tools_stay_bounded(workspace: Workspace, site: Site, shop: str) -> None:
    workspace.ok("goto", site.url("/tools/hostile"))
    listed = workspace.ok("tools")
    assert listed.startswith("1003 page tools")
    assert len(listed) < 20_000 and "more not shown" in listed
    described = workspace.run("tools", "--json").json["data"]["tools"]  # type: ignore[index]
    assert len(described) == 500
    huge = workspace.ok("tool", "huge")
    assert len(huge) < 30_000 and "more characters" in huge
    assert workspace.ok("tool", "selfref", '{"child": {"n": 2}}').startswith("Called page tool selfref")
    deep = workspace.run("tool", "selfref", '{"child": {"n": "two"}}')
    assert deep.code == 2 and "child/n: 'two' is not of type 'integer'" in deep.err
    left = workspace.run("tool", "leave", "--timeout", "3000")
    assert left.code in (0, 1, 4) and "Traceback" not in left.err
    assert workspace.ok("url").strip().endswith("/tools/added")


def test_page_tools_can_be_turned_off(fresh_workspace: Workspace, shop: str) -> None:
    fresh_workspace.ok("goto", shop, BROWSE_WEBMCP="0")
    off = fresh_workspace.run("tools", BROWSE_WEBMCP="0")
    assert off.code == 3 and "page tools are off (BROWSE_WEBMCP=0)" in off.err
    assert "page tools (WebMCP): off (BROWSE_WEBMCP=0)" in fresh_workspace.ok("status", BROWSE_WEBMCP="0")
    seen = fresh_workspace.ok("js", "typeof document.modelContext", "--raw", BROWSE_WEBMCP="0")
    assert seen.strip() == "undefined"  # the page was never offered the API


def test_a_cross_site_frame_that_navigates_away_mid_call_loses_its_tools_and_the_daemon_lives(
    workspace: Workspace, site: Site, shop: str
) -> None:
    workspace.ok("goto", site.url("/tools/leaving"))
    assert "in frame http://localhost:" in workspace.ok("tools")
    slow = workspace.ok("tool", "frame_slow", "--timeout", "200", "--detach").split("call ")[1].split(" ")[0]
    workspace.ok("js", "document.querySelector('iframe').remove()")
    gone = workspace.run("tool-result", slow, "--timeout", "60000")
    assert gone.code == 1 and "its frame navigated away or was removed before it answered" in gone.err
    workspace.ok("goto", site.url("/tools/leaving"))
    left = workspace.run("tool", "frame_leave", "--timeout", "3000")
    assert left.code in (0, 1, 4) and "Traceback" not in left.err
    assert workspace.ok("tools").startswith("no page tools here")
