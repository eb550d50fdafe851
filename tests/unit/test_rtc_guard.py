"""The WebRTC guard (`rtc_guard.js`) in Node, with a stand-in RTCPeerConnection that records what it got."""

from __future__ import annotations

import json

from test_page_scripts import _node

from refbrowse.daemon.core.devtools.scripts import called
from refbrowse.daemon.services.policy import glob_regex

FAKE = """
globalThis.self = globalThis;
globalThis.DOMException = class extends Error { constructor(m, name) { super(m); this.name = name; } };
const got = [];
class FakePeerConnection {
  constructor(config) { got.push(JSON.stringify(config && config.iceServers)); }
  setConfiguration(config) { got.push(JSON.stringify(config.iceServers)); }
  addIceCandidate(c) { got.push(c.candidate); return Promise.resolve(); }
  setRemoteDescription(d) { got.push(d.sdp); return Promise.resolve(); }
}
self.RTCPeerConnection = FakePeerConnection;
"""

TRIES = {
    "stun outside": "new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.2:3478'}]})",
    "turns in a list": "new RTCPeerConnection({iceServers: [{urls: ['stun:a.test', 'turns:evil.test']}]})",
    "ipv6 outside": "new RTCPeerConnection({iceServers: [{urls: 'stun:[::1]:3478'}]})",
    "old url key": "new RTCPeerConnection({iceServers: [{url: 'stun:127.0.0.2'}]})",
    "by the prototype": "new (Object.getPrototypeOf(new RTCPeerConnection()).constructor)("
    "{iceServers: [{urls: 'stun:127.0.0.2'}]})",
    "setConfiguration": "new RTCPeerConnection().setConfiguration({iceServers: [{urls: 'turn:127.0.0.2'}]})",
    "inside": "new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.1:3478?x'}]})",
    "none": "new RTCPeerConnection()",
}


def _run(body: str) -> list[str]:
    guard = called("rtc_guard", [glob_regex("127.0.0.1"), glob_regex("a.test")])
    code = f"{FAKE}{guard}\nconst out = [];\n{body}\nsetTimeout(() => console.log(JSON.stringify(out)), 10);"
    return list(json.loads(_node(code)))


def test_ice_servers_outside_the_policy_are_refused_by_every_way_in() -> None:
    body = "".join(
        f"try {{ {code}; out.push({json.dumps(name)} + ' made'); }}"
        f" catch (e) {{ out.push({json.dumps(name)} + ' ' + e.name); }}\n"
        for name, code in TRIES.items()
    )
    said = _run(body)
    for name in TRIES:
        expected = "made" if name in ("inside", "none") else "SecurityError"
        assert f"{name} {expected}" in said, said


def test_remote_candidates_outside_the_policy_are_refused_or_left_out() -> None:
    sdp = (
        "v=0\\r\\na=candidate:1 1 udp 1 127.0.0.2 9 typ host\\r\\na=candidate:2 1 udp 1 127.0.0.1 9 typ host"
    )
    body = (
        "const pc = new RTCPeerConnection();"
        "pc.addIceCandidate({candidate: 'candidate:1 1 udp 1 127.0.0.2 9 typ host'})"
        ".then(() => out.push('outside added'), e => out.push('outside ' + e.name));"
        "pc.addIceCandidate({candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host'})"
        ".then(() => out.push('inside added'), e => out.push('inside ' + e.name));"
        f"pc.setRemoteDescription({{type: 'offer', sdp: '{sdp}'}}).then(() => out.push(...got.slice(-1)));"
    )
    said = _run(body)
    assert "outside SecurityError" in said and "inside added" in said, said
    assert any("127.0.0.1 9" in line and "127.0.0.2" not in line for line in said), said
