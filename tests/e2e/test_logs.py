"""Console, network and dialog capture from every tab, the log files, and the console breaker."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import FixtureHandler, Site, Workspace, strip_fence, wait_for

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

LOGGING_PAGE = """<title>logs</title><script>
console.log('hello from ' + location.pathname);
console.error('something broke');
</script><p>logging</p>"""

DIALOG_PAGE = """<title>dialogs</title><button id="ask"
  onclick="document.title = confirm('Delete?') + '|' + prompt('Name?', 'anon'); alert('done')">ask</button>"""

FLOOD_PAGE = """<title>flood</title><script>
function flood(n) { for (let i = 0; i < n; i++) console.log('flood ' + i); }
</script><p>flood</p>"""


@pytest.fixture(scope="module")
def pages(workspace: Workspace, site: Site) -> Callable[[str], str]:
    def serve(name: str) -> str:
        html = {"logging": LOGGING_PAGE, "dialogs": DIALOG_PAGE, "flood": FLOOD_PAGE}[name.split("-")[0]]
        return site.page(f"/logs/{name}", html)

    return serve


def test_console_captures_messages_from_every_tab(workspace: Workspace, pages: Callable[[str], str]) -> None:
    workspace.ok("console", "--clear")
    workspace.ok("goto", pages("logging-a"))
    workspace.ok("newtab", pages("logging-b"))
    out = workspace.ok("console")
    text = strip_fence(out)
    assert "[log] hello from /logs/logging-a" in text and "[log] hello from /logs/logging-b" in text
    assert "[error] something broke" in text
    assert out.startswith("<<<untrusted page content from ")
    workspace.ok("closetab")


def test_console_errors_only_and_clear(workspace: Workspace, pages: Callable[[str], str]) -> None:
    workspace.ok("goto", pages("logging-c"))
    workspace.ok("js", "setTimeout(() => { throw new Error('uncaught here') }, 0)")
    assert wait_for(lambda: "uncaught here" in workspace.ok("console", "--errors"))
    errors = strip_fence(workspace.ok("console", "--errors"))
    assert "something broke" in errors and "hello from" not in errors
    assert workspace.ok("console", "--clear").startswith("Cleared ")
    assert strip_fence(workspace.ok("console")) == "(no console messages)"
    workspace.ok("js", "console.warn('after clear')")
    assert strip_fence(workspace.ok("console")).endswith("[warning] after clear")


def test_console_raw_has_no_fence(workspace: Workspace, pages: Callable[[str], str]) -> None:
    workspace.ok("js", "console.log('plain line')")
    raw = workspace.ok("--raw", "console")
    assert "plain line" in raw and "<<<" not in raw


def test_network_lists_responses_and_clears(
    workspace: Workspace, site: Site, pages: Callable[[str], str]
) -> None:
    workspace.ok("network", "--clear")
    url = pages("logging-net")
    workspace.ok("goto", url)
    missing = site.url("/logs/no-such-file.txt")
    workspace.ok("js", f"fetch('{missing}').then(r => r.status)")
    assert wait_for(lambda: "no-such-file" in workspace.ok("network"))
    lines = [line.split(" ", 1)[1] for line in strip_fence(workspace.ok("network")).splitlines()]
    assert any(line.startswith(f"GET {url} → 200 (") and line.endswith(" bytes)") for line in lines)
    assert any(line.startswith(f"GET {missing} → 404 (") for line in lines)
    workspace.ok("network", "--clear")
    assert strip_fence(workspace.ok("network")) == "(no requests)"


def _revalidated(handler: FixtureHandler) -> None:
    """A resource the browser must revalidate each time: 304 once it holds the current version."""
    handler.protocol_version = "HTTP/1.1"  # as real servers answer: Chromium did not revalidate HTTP/1.0 here
    if handler.headers.get("If-None-Match") == '"v1"':
        handler.send_response(304)
        handler.send_header("ETag", '"v1"')
        handler.end_headers()
        return
    cache = {"ETag": '"v1"', "Cache-Control": "max-age=0", "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT"}
    handler.reply('{"items": [1, 2, 3]}' * 20, headers=cache)


def test_network_shows_a_304_as_not_modified_never_a_negative_size(
    workspace: Workspace, site: Site, pages: Callable[[str], str]
) -> None:
    data = site.route("/logs/revalidated.json", _revalidated)
    workspace.ok("goto", pages("logging-304"))
    workspace.ok("network", "--clear")
    for _ in range(2):
        workspace.ok("js", f"await fetch('{data}').then(r => r.text()).then(t => t.length)")
    assert wait_for(lambda: strip_fence(workspace.ok("network")).count("revalidated.json") == 2)
    first, second = (line.split(" ", 1)[1] for line in strip_fence(workspace.ok("network")).splitlines())
    assert first.startswith(f"GET {data} → 200 (") and first.endswith(" bytes)"), first
    assert second.startswith(f"GET {data} → 304 not modified (") and second.endswith(", cached copy)"), second
    assert " -" not in first + second


def test_dialogs_are_accepted_by_default_and_logged(
    workspace: Workspace, pages: Callable[[str], str]
) -> None:
    workspace.ok("dialog", "--clear")
    workspace.ok("goto", pages("dialogs-a"))
    workspace.ok("js", "document.querySelector('#ask').click()")
    assert strip_fence(workspace.ok("js", "document.title")) == "true|anon"
    log = strip_fence(workspace.ok("dialog"))
    assert "confirm 'Delete?' → accepted" in log
    assert "prompt 'Name?' → accepted" in log
    assert "alert 'done' → accepted" in log


def test_dialog_dismiss_and_accept_with_text(workspace: Workspace, pages: Callable[[str], str]) -> None:
    workspace.ok("goto", pages("dialogs-b"))
    workspace.ok("dialog-dismiss")
    workspace.ok("js", "document.querySelector('#ask').click()")
    assert strip_fence(workspace.ok("js", "document.title")) == "false|null"
    workspace.ok("dialog-accept", "Grace")
    workspace.ok("js", "document.querySelector('#ask').click()")
    assert strip_fence(workspace.ok("js", "document.title")) == "true|Grace"
    log = strip_fence(workspace.ok("dialog"))
    assert "prompt 'Name?' → dismissed" in log and "prompt 'Name?' → accepted with 'Grace'" in log
    workspace.ok("dialog-accept")
    assert workspace.ok("dialog", "--clear").startswith("Cleared ")
    assert strip_fence(workspace.ok("dialog")) == "(no dialogs)"


def test_logs_are_flushed_to_files(workspace: Workspace, pages: Callable[[str], str]) -> None:
    workspace.ok("js", "console.log('to the file')")
    console_log = workspace.state_dir / "console.log"
    assert wait_for(lambda: console_log.exists() and "to the file" in console_log.read_text())
    assert wait_for(lambda: (workspace.state_dir / "network.log").exists())
    assert wait_for(lambda: "→ accepted" in (workspace.state_dir / "dialog.log").read_text())


def test_a_console_flood_trips_the_breaker_and_other_tabs_still_answer(
    workspace: Workspace, pages: Callable[[str], str]
) -> None:
    quiet = pages("logging-quiet")
    workspace.ok("goto", quiet)
    workspace.ok("newtab", pages("flood"))
    workspace.ok("js", "setTimeout(() => flood(20000), 0); 'started'")
    workspace.ok("tab", "1")
    assert workspace.ok("url").strip() == quiet
    assert strip_fence(workspace.ok("js", "document.title")) == "logs"
    assert wait_for(lambda: "console capture paused" in workspace.ok("console"), seconds=60)
    assert workspace.ok("url").strip() == quiet
    console_log = workspace.state_dir / "console.log"
    assert wait_for(lambda: "console capture paused" in console_log.read_text())
    captured = console_log.read_text().count("] [log] flood ")
    assert 0 < captured < 20000


def test_each_session_sees_its_own_logs(workspace: Workspace, pages: Callable[[str], str]) -> None:
    workspace.ok("--session", "other", "goto", pages("logging-other"))
    other = strip_fence(workspace.ok("--session", "other", "console"))
    assert "hello from /logs/logging-other" in other and "flood" not in other
    assert "logging-other" not in workspace.ok("console")
