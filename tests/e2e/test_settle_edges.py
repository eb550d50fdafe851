"""The edges of a fast action: what a page does just after the action still reaches its report.

An action answers once its page has settled, and reads the page while it
waits; these pages act late on purpose (a timer, a slow fetch, a form posted
from a timer, a change after the reading began) and each test checks both the
action's report and the snapshot the agent takes next.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import time

import pytest
from test_effects import effects, fenced_part
from test_snapshot import ref, snap

from conftest import FixtureHandler, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

NEXT = "<title>Next</title><h1>Arrived</h1><button>Onward</button>"


def _button(label: str, script: str) -> str:
    return f'<title>Start</title><button onclick="{script}">{label}</button><p role=status id=out></p>'


@pytest.mark.parametrize("delay_ms", [0, 50])
def test_a_click_whose_handler_navigates_from_a_timer_reports_the_navigation_and_the_new_page(
    workspace: Workspace, site: Site, delay_ms: int
) -> None:
    next_url = site.page("/edges/next", NEXT)
    url = site.page(
        "/edges/timer", _button("Go", f"setTimeout(() => location.href = '/edges/next', {delay_ms})")
    )
    workspace.ok("goto", url)
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Go"))
    assert effects(printed).splitlines()[0] == f"navigated to {next_url}"
    assert 'button "Onward"' in snap(workspace, "-i")


def test_a_form_posted_from_a_timer_is_followed_to_the_page_it_returns(
    workspace: Workspace, site: Site
) -> None:
    site.route("/edges/posted", lambda h: h.reply(NEXT))
    url = site.page(
        "/edges/form",
        "<title>Form</title><form method=post action=/edges/posted><input name=q value=1></form>"
        '<button onclick="setTimeout(() => document.forms[0].submit(), 30)">Send</button>',
    )
    workspace.ok("goto", url)
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Send"))
    assert effects(printed).splitlines()[0] == f"navigated to {site.url('/edges/posted')}"
    assert 'button "Onward"' in snap(workspace, "-i")


def _slow_text(delay_s: float) -> object:
    def route(handler: FixtureHandler) -> None:
        time.sleep(delay_s)
        handler.reply("Saved late")

    return route


def test_a_click_whose_fetch_answers_200_ms_later_reports_the_text_it_shows(
    workspace: Workspace, site: Site
) -> None:
    site.route("/edges/save", _slow_text(0.2))
    script = "fetch('/edges/save').then(r => r.text()).then(t => { out.textContent = t })"
    workspace.ok("goto", site.page("/edges/fetch", _button("Save", script)))
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Save"))
    assert 'status: "Saved late"' in fenced_part(printed), printed
    assert "Saved late" in snap(workspace)


def test_a_button_added_just_after_a_click_is_in_the_view_diff_and_the_next_snapshot(
    workspace: Workspace, site: Site
) -> None:
    # Added 20 ms after the click: after the daemon began reading the page, within the settle window.
    script = "setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<button>Later</button>'), 20)"
    workspace.ok("goto", site.page("/edges/later", _button("Add", script)))
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Add"))
    assert 'button "Later"' in fenced_part(printed), printed
    assert 'button "Later"' in snap(workspace, "-i")


def test_a_fill_whose_input_handler_changes_the_page_from_a_timer_reports_the_change(
    workspace: Workspace, site: Site
) -> None:
    url = site.page(
        "/edges/fill",
        '<title>Fill</title><label>Name <input oninput="const v = this.value; '
        "setTimeout(() => { out.textContent = 'Hello ' + v }, 40)\"></label><p role=status id=out></p>",
    )
    workspace.ok("goto", url)
    printed = workspace.ok("fill", ref(snap(workspace, "-i"), "textbox", "Name"), "Ann")
    assert 'status: "Hello Ann"' in fenced_part(printed), printed
    assert "Hello Ann" in snap(workspace)


def test_a_page_that_renders_just_after_load_is_what_the_snapshot_after_goto_shows(
    workspace: Workspace, site: Site
) -> None:
    url = site.page(
        "/edges/render",
        "<title>Render</title><button>First</button><script>addEventListener('load', () => setTimeout(() => "
        "document.body.insertAdjacentHTML('beforeend', '<button>Rendered</button>'), 30))</script>",
    )
    workspace.ok("goto", url)
    shown = snap(workspace, "-i")
    assert 'button "First"' in shown and 'button "Rendered"' in shown


def test_a_page_that_changes_after_goto_answered_is_read_again_by_the_snapshot(
    workspace: Workspace, site: Site
) -> None:
    url = site.page(
        "/edges/changed",
        "<title>Changed</title><button>Before</button><script>addEventListener('load', () => "
        "setTimeout(() => { document.querySelector('button').textContent = 'After' }, 150))</script>",
    )
    workspace.ok("goto", url)
    time.sleep(0.5)  # the agent reads the report; the page changes meanwhile
    shown = snap(workspace, "-i")
    assert 'button "After"' in shown and "Before" not in shown


def test_a_link_to_a_fragment_is_a_same_document_change_not_a_navigation_awaited(
    workspace: Workspace, site: Site
) -> None:
    url = site.page("/edges/hash", "<title>Hash</title><a href='#part'>Part</a><h2 id=part>Part</h2>")
    workspace.ok("goto", url)
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "link", "Part"))
    assert effects(printed) == f"URL changed to {url}#part (same document)"


def test_a_select_whose_change_handler_navigates_from_a_timer_reports_the_navigation(
    workspace: Workspace, site: Site
) -> None:
    next_url = site.page("/edges/next", NEXT)
    url = site.page(
        "/edges/select",
        "<title>Select</title><label>Size <select "
        "onchange=\"setTimeout(() => location.href = '/edges/next', 50)\">"
        "<option>Small</option><option>Large</option></select></label>",
    )
    workspace.ok("goto", url)
    printed = workspace.ok("select", ref(snap(workspace, "-i"), "combobox", "Size"), "Large")
    assert effects(printed).splitlines()[0] == f"navigated to {next_url}"
    assert 'button "Onward"' in snap(workspace, "-i")


# The action's own work: an action answers a frame after the last of what its handlers scheduled
# (timers of up to 50 ms and the ones those set, animation frames, messages within the page), and
# waits the whole window when it sent something whose answer cannot be seen coming (a worker).

_SHOW = "out.textContent = 'Done'"
_CHAINS = {
    "timers": f"setTimeout(() => setTimeout(() => {{ {_SHOW} }}, 30), 0)",
    "frames": f"requestAnimationFrame(() => requestAnimationFrame(() => {{ {_SHOW} }}))",
    "message channel": "const c = new MessageChannel(); "
    f"c.port1.onmessage = () => setTimeout(() => {{ {_SHOW} }}, 20); c.port2.postMessage(1)",
    "worker": f"worker.onmessage = () => {{ {_SHOW} }}; worker.postMessage(1)",
    "short timer through a function the page kept": f"kept(() => {{ {_SHOW} }}, 10)",
}
_KEEP = (
    "<script>const kept = setTimeout; const worker = new Worker(URL.createObjectURL(new Blob(["
    "'onmessage = e => setTimeout(() => postMessage(e.data), 40)'])))</script>"
)


@pytest.mark.parametrize("chain", list(_CHAINS))
def test_what_a_click_handler_scheduled_is_in_the_report(
    workspace: Workspace, site: Site, chain: str
) -> None:
    page = _button("Go", _CHAINS[chain].replace('"', "&quot;")) + _KEEP
    workspace.ok("goto", site.page(f"/edges/chain-{chain.replace(' ', '-')}", page))
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Go"))
    assert 'status: "Done"' in fenced_part(printed), printed


def test_the_page_has_its_own_timer_functions_after_an_action_and_the_ones_it_kept_still_work(
    workspace: Workspace, site: Site
) -> None:
    names = "setTimeout clearTimeout clearInterval requestAnimationFrame cancelAnimationFrame postMessage"
    kept = f"[{', '.join(names.split())}, MessagePort.prototype.postMessage, WebSocket.prototype.send]"
    shown = "kept(() => { out.textContent = 'Kept ran' }, 0)"
    url = site.page("/edges/own", _button("Go", shown) + "<script>const kept = setTimeout</script>")
    workspace.ok("goto", url)
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Go"))
    assert 'status: "Kept ran"' in fenced_part(printed), printed
    # the page's own functions are in place again: native, each with its own name
    own = f"{kept}.every(f => String(f) === `function ${{f.name}}() {{ [native code] }}`)"
    assert fenced_part(workspace.ok("js", own)) == "true"


def test_a_page_polling_with_short_timers_still_gets_its_action_reported(
    workspace: Workspace, site: Site
) -> None:
    url = site.page(
        "/edges/poll",
        _button("Go", f"setTimeout(() => {{ {_SHOW} }}, 20)")
        + "<script>(function poll() { setTimeout(poll, 5) })()</script>",
    )
    workspace.ok("goto", url)
    printed = workspace.ok("click", ref(snap(workspace, "-i"), "button", "Go"))
    assert 'status: "Done"' in fenced_part(printed), printed


def _socket(*script: tuple[str, float, str]) -> object:
    """A WebSocket endpoint playing `script`: ("send", delay_s, text) sends text after delay_s,
    ("hear", 0, "") waits for the page's next message; then it stays open until the page goes."""

    def route(handler: FixtureHandler) -> None:
        key = handler.headers["Sec-WebSocket-Key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        handler.send_response(101, "Switching Protocols")
        handler.send_header("Upgrade", "websocket")
        handler.send_header("Connection", "Upgrade")
        handler.send_header(
            "Sec-WebSocket-Accept", base64.b64encode(hashlib.sha1(key.encode()).digest()).decode()
        )
        handler.end_headers()
        handler.wfile.flush()
        handler.connection.settimeout(10)
        with contextlib.suppress(OSError):
            for step, delay_s, text in script:
                if step == "hear":  # a short masked frame from the page
                    head = handler.rfile.read(2)
                    handler.rfile.read(4 + (head[1] & 0x7F))
                    continue
                time.sleep(delay_s)
                handler.wfile.write(bytes([0x81, len(text)]) + text.encode())
                handler.wfile.flush()
            while handler.rfile.read(1):  # held open until the page goes
                pass
        handler.close_connection = True

    return route


_DRAWN_BY_SOCKET = (
    "<title>Live</title><button>Menu</button><script>"
    "const ws = new WebSocket(`ws://${{location.host}}{path}`); ws.onmessage = e => "
    "document.body.insertAdjacentHTML('beforeend', `<button>${{e.data}}</button>`)</script>"
)


@pytest.mark.parametrize(
    ("name", "script", "shown"),
    [
        ("speaks", (("send", 0.3, "Book"),), "Book"),  # drawn from the socket's first message
        ("silent", (), "Menu"),  # a socket that never speaks: what the page shows, after a bounded wait
    ],
)
def test_goto_a_page_with_a_websocket_shows_what_the_page_drew_from_it(
    workspace: Workspace, site: Site, name: str, script: tuple[tuple[str, float, str], ...], shown: str
) -> None:
    site.route(f"/edges/{name}-socket", _socket(*script))
    url = site.page(f"/edges/{name}", _DRAWN_BY_SOCKET.format(path=f"/edges/{name}-socket"))
    printed = workspace.ok("goto", url)
    assert f'button "{shown}"' in printed, printed


_CONVERSATIONS = {
    # Bokeh's way: the server greets, the page asks for its document, the answer draws the page.
    "asked": (
        (("send", 0, "hello"), ("hear", 0, ""), ("send", 0.3, "Book")),
        "e.data === 'hello' ? ws.send('pull') : draw(e.data)",
    ),
    # Streamlit's way: the server greets at once, then sends the page in parts while its script runs.
    "parts": (
        (("send", 0, "hello"), ("send", 0.2, "Name"), ("send", 0.2, "Size"), ("send", 0.2, "Book")),
        "e.data === 'hello' || draw(e.data)",
    ),
}


@pytest.mark.parametrize("name", list(_CONVERSATIONS))
def test_goto_a_page_drawn_from_what_its_websocket_says_after_a_greeting_shows_all_of_it(
    workspace: Workspace, site: Site, name: str
) -> None:
    script, heard = _CONVERSATIONS[name]
    site.route(f"/edges/{name}-socket", _socket(*script))
    url = site.page(
        f"/edges/{name}",
        "<title>Live</title><button>Menu</button><script>"
        "const draw = t => document.body.insertAdjacentHTML('beforeend', `<button>${t}</button>`);"
        f"const ws = new WebSocket(`ws://${{location.host}}/edges/{name}-socket`);"
        f"ws.onmessage = e => {heard}</script>",
    )
    printed = workspace.ok("goto", url)
    assert 'button "Book"' in printed, printed


def test_a_click_that_asks_an_open_socket_reports_what_its_answer_shows(
    workspace: Workspace, site: Site
) -> None:
    # The socket was opened by the page's load, before the click: its answer to the click is awaited too.
    answer = (("send", 0, "hello"), ("hear", 0, ""), ("send", 0.25, "Total: 42"))
    site.route("/edges/ask-socket", _socket(*answer))
    url = site.page(
        "/edges/ask",
        "<title>Ask</title><button onclick=\"ws.send('go')\">Compute</button><p role=status id=out></p>"
        "<script>const ws = new WebSocket(`ws://${location.host}/edges/ask-socket`);"
        "ws.onmessage = e => { if (e.data !== 'hello') out.textContent = e.data }</script>",
    )
    printed = workspace.ok("goto", url)
    printed = workspace.ok("click", ref(printed, "button", "Compute"))
    assert 'status: "Total: 42"' in fenced_part(printed), printed


def test_a_click_whose_server_shows_it_is_at_work_only_after_a_moment_reports_the_answer(
    workspace: Workspace, site: Site
) -> None:
    # Streamlit's way: the server says at once that the script started, says it is running a moment
    # later (the page shows "Running..."), and sends the result when the script ends, seconds after.
    answer = (
        ("send", 0, "hello"), ("hear", 0, ""), ("send", 0, "started"), ("send", 0.7, "running"),
        ("send", 1.5, "Total: 42"),
    )  # fmt: skip
    site.route("/edges/slow-socket", _socket(*answer))
    url = site.page(
        "/edges/slow",
        "<title>Slow</title><h1>Quarterly figures</h1><p>Totals are computed on the server.</p>"
        "<button onclick=\"ws.send('go')\">Compute</button><button>Export</button><p role=status id=out></p>"
        "<div id=sign hidden aria-label='Running...'><svg width=10 height=10></svg></div>"
        "<script>const ws = new WebSocket(`ws://${location.host}/edges/slow-socket`);"
        "ws.onmessage = e => { if (e.data === 'running') sign.hidden = false;"
        " else if (e.data.startsWith('Total')) { sign.hidden = true; out.textContent = e.data } }"
        "</script>",
    )
    printed = workspace.ok("goto", url)
    printed = workspace.ok("click", ref(printed, "button", "Compute"))
    assert 'status: "Total: 42"' in fenced_part(printed), printed
