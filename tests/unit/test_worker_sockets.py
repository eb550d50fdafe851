"""The worker socket guard (`worker_sockets.js`) decides as the policy's host check does, run in Node."""

from __future__ import annotations

import fnmatch
import json

from test_page_scripts import _node

from refbrowse.daemon.core.devtools.scripts import called
from refbrowse.daemon.services.policy import glob_regex

PATTERNS = ["127.0.0.1", "*.example.com", "host-?.test", "[ab]c.net", "[!x]y.org", "a+b.io", "[]z.dev"]
HOSTS = [
    "127.0.0.1",
    "127.0.0.2",
    "1270001",
    "a.example.com",
    "example.com",
    "x.example.com.evil",
    "host-1.test",
    "host-12.test",
    "ac.net",
    "cc.net",
    "zy.org",
    "xy.org",
    "a+b.io",
    "aab.io",
    "]z.dev",
    "z.dev",
]

# A worker's global scope, enough for the guard: a location, and socket constructors that record their URL.
FAKE_WORKER = """
globalThis.self = globalThis;
self.location = {href: 'http://127.0.0.1:8000/w.js'};
class Socket { constructor(url) { this.url = url; } }
self.WebSocket = Socket;
self.WebTransport = class { constructor(url) { this.url = url; } };
"""


def test_the_guards_regular_expressions_match_the_hosts_the_policy_allows() -> None:
    sources = [glob_regex(p) for p in PATTERNS]
    code = (
        f"const res = {json.dumps(sources)}.map(s => new RegExp('^(?:' + s + ')$', 's'));"
        f"console.log(JSON.stringify({json.dumps(HOSTS)}.map(h => res.map(r => r.test(h)))));"
    )
    found = json.loads(_node(code))
    expected = [[fnmatch.fnmatchcase(h, p) for p in PATTERNS] for h in HOSTS]
    assert found == expected


def test_the_guard_refuses_a_socket_outside_the_allowed_hosts_by_every_way_to_its_constructor() -> None:
    guard = called(
        "worker_sockets", [glob_regex("127.0.0.1"), glob_regex("*.localhost")], ["WebSocket", "WebTransport"]
    )
    tries = {
        "outside": "new WebSocket('ws://127.0.0.2:9/x')",
        "outside by http": "new WebSocket('http://evil.test/')",
        "through the prototype": "new WebSocket.prototype.constructor('ws://evil.test/')",
        "a subclass": "new (class extends WebSocket {})('wss://evil.test/')",
        "after reassigning": "(self.WebSocket = Socket, new WebSocket('ws://evil.test/'))",
        "WebTransport": "new WebTransport('https://evil.test/')",
        "inside": "new WebSocket('ws://127.0.0.1:9/x')",
        "relative": "new WebSocket('/x')",
        "inside by pattern": "new WebSocket('ws://app.localhost/')",
    }
    code = FAKE_WORKER + guard + "const out = {};"
    for name, expression in tries.items():
        key = json.dumps(name)
        code += f"try {{ {expression}; out[{key}] = 'made'; }} catch (e) {{ out[{key}] = e.name; }}"
    code += "console.log(JSON.stringify(out));"
    out = json.loads(_node(code))
    refused = {
        "outside",
        "outside by http",
        "through the prototype",
        "a subclass",
        "after reassigning",
        "WebTransport",
    }
    assert out == {name: "SecurityError" if name in refused else "made" for name in tries}
