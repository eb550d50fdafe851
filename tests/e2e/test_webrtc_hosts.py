"""Under BROWSE_ALLOWED_HOSTS, WebRTC reaches no other host: no STUN or TURN, no peer candidate.

The page, on 127.0.0.1, opens peer connections whose ICE servers are a UDP
(STUN) and a TCP (TURN) listener on 127.0.0.2, one from a fresh iframe's
constructor, and hands a connection remote candidates there (by
addIceCandidate and inside a remote description). The listeners log whatever
arrives. Without a host policy the same page reaches them: the test can fail.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from test_remote import RemoteChromium, remote  # noqa: F401 - fixture

from conftest import Site, Workspace
from otherhost import TcpLog, UdpLog, udp_and_tcp_logs

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PAGE = """<title>rtc</title><pre id=log></pre><script>
const log = line => { document.getElementById('log').textContent += line + '\\n'; };
const STUN = [{urls: 'stun:127.0.0.2:@UDP@'}];
const TURN = [{urls: 'turn:127.0.0.2:@TCP@?transport=tcp', username: 'u', credential: 'p'}];
const gather = (name, make) => {
  try {
    const pc = make();
    pc.createDataChannel('x');
    pc.createOffer().then(offer => pc.setLocalDescription(offer));
    log(name + ' made');
  } catch (error) { log(name + ' refused ' + error.name); }
};
gather('stun', () => new RTCPeerConnection({iceServers: STUN}));
gather('turn', () => new RTCPeerConnection({iceServers: TURN}));
const frame = document.createElement('iframe');
document.body.append(frame);
gather('frame', () => new frame.contentWindow.RTCPeerConnection({iceServers: STUN}));
gather('later', () => {
  const pc = new RTCPeerConnection();
  pc.setConfiguration({iceServers: STUN});
  return pc;
});
(async () => {
  const a = new RTCPeerConnection(), b = new RTCPeerConnection();
  a.createDataChannel('x');
  const offer = await a.createOffer();
  await a.setLocalDescription(offer);
  const line = 'a=candidate:9 1 udp 2122260223 127.0.0.2 @UDP@ typ host\\r\\n';
  const sdp = offer.sdp.replace(/(a=mid:0\\r\\n)/, '$1' + line);
  await b.setRemoteDescription({type: 'offer', sdp});
  await b.setLocalDescription(await b.createAnswer());
  const peers = [['udp', '127.0.0.2 @UDP@ typ host'], ['tcp', '127.0.0.2 @TCP@ typ host tcptype passive']];
  for (const [name, line] of peers) {
    const candidate = `candidate:${name === 'udp' ? 1 : 2} 1 ${name} 2122260223 ${line}`;
    await b.addIceCandidate({candidate, sdpMid: '0', sdpMLineIndex: 0})
      .then(() => log(`candidate ${name} added`), error => log(`candidate ${name} refused ${error.name}`));
  }
})();
</script>"""


@pytest.fixture
def logs() -> Iterator[tuple[UdpLog, TcpLog]]:
    with udp_and_tcp_logs() as both:
        yield both


def _page(site: Site, udp: UdpLog, tcp: TcpLog) -> str:
    return site.page("/rtc/page", PAGE.replace("@UDP@", str(udp.port)).replace("@TCP@", str(tcp.port)))


def _lines(ws: Workspace) -> set[str]:
    lines: set[str] = set()
    for _ in range(30):
        lines = set(ws.ok("--raw", "js", "document.getElementById('log').textContent").split("\n"))
        if {"candidate udp added", "candidate udp refused SecurityError"} & lines:
            break
        time.sleep(0.3)
    time.sleep(3)  # ICE gathering and checks run for a while after the page's calls
    return lines


def _held(ws: Workspace, url: str, udp: UdpLog, tcp: TcpLog) -> None:
    ws.ok("goto", url)
    lines = _lines(ws)
    assert udp.datagrams == [] and tcp.connections == [], (lines, udp.datagrams[:3], tcp.connections[:3])
    for name in ("stun", "turn", "frame", "later"):
        assert f"{name} refused SecurityError" in lines, lines
    assert "candidate udp refused SecurityError" in lines, lines


def test_webrtc_reaches_no_host_outside_the_policy(
    fresh_workspace: Workspace, site: Site, logs: tuple[UdpLog, TcpLog]
) -> None:
    udp, tcp = logs
    url = _page(site, udp, tcp)
    fresh_workspace.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1"
    _held(fresh_workspace, url, udp, tcp)


def test_without_a_policy_the_same_page_reaches_the_other_host(
    fresh_workspace: Workspace, site: Site, logs: tuple[UdpLog, TcpLog]
) -> None:
    udp, tcp = logs
    fresh_workspace.ok("goto", _page(site, udp, tcp))
    lines = _lines(fresh_workspace)
    assert "stun made" in lines and "candidate udp added" in lines, lines
    assert udp.datagrams and tcp.connections, lines


def test_a_remote_browsers_webrtc_reaches_no_host_outside_the_policy(
    fresh_workspace: Workspace,
    site: Site,
    remote: RemoteChromium,  # noqa: F811
    logs: tuple[UdpLog, TcpLog],
) -> None:
    udp, tcp = logs
    ws = fresh_workspace
    ws.env["BROWSE_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    ws.ok("goto", "about:blank")
    assert "Now remote (cdp" in ws.ok("connect", "--cdp", remote.url)
    _held(ws, _page(site, udp, tcp), udp, tcp)
