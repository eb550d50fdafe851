// In every page and frame under BROWSE_ALLOWED_HOSTS, before the document's scripts: WebRTC reaches no
// host outside the policy. An RTCPeerConnection (constructor or setConfiguration) whose ICE servers
// (STUN/TURN) name a host outside the policy is refused; a remote candidate outside it is refused by
// addIceCandidate and left out of a remote description's SDP. `patterns` holds one regular expression
// per allowed host pattern (`Policy.host_regexes`). What the browser gets is a copy made here, so a getter
// cannot answer one thing to the check and another to the browser. A browser this daemon launches also
// sends no UDP outside a proxy and resolves no other host (launch flags); a remote one has this guard alone.
(patterns) => {
  const marker = Symbol.for('refbrowse.rtcGuard');
  const Original = self.RTCPeerConnection;
  if (typeof Original !== 'function' || self[marker]) return;
  const allowed = patterns.map(source => new RegExp('^(?:' + source + ')$', 's'));
  const refused = host => {
    const bare = String(host).toLowerCase().replace(/^\[|\]$/g, '');
    return allowed.some(pattern => pattern.test(bare)) ? '' : bare || '(no host)';
  };
  const refusal = what => new DOMException(`${what} refused: outside BROWSE_ALLOWED_HOSTS`, 'SecurityError');
  // `stun:host:port`, `turn:host?transport=tcp`, `turns:[::1]:5349`: the host of an ICE server URL.
  const serverHost = url => {
    const found = /^\s*(?:stuns?|turns?):(\[[^\]]*\]|[^:?/\s]*)/i.exec(String(url));
    return found ? found[1] : String(url);
  };
  const servers = config => {
    const copied = [];
    for (const server of Array.from((config && config.iceServers) || [])) {
      const raw = server.urls !== undefined ? server.urls : server.url;
      const urls = typeof raw === 'string' ? [raw] : Array.from(raw || [], String);
      for (const url of urls) {
        const host = refused(serverHost(url));
        if (host) throw refusal(`ICE server ${host}`);
      }
      copied.push({ urls, username: server.username, credential: server.credential });
    }
    return copied;
  };
  const configured = config => (config == null ? config : { ...Object(config), iceServers: servers(config) });
  // `candidate:1 1 udp 2122260223 203.0.113.5 5000 typ host`: the address is the fifth word.
  const candidateHost = text => {
    const words = String(text).trim().replace(/^a=/, '').split(/\s+/);
    return words.length > 5 ? words[4] : '';
  };
  const sdpKept = sdp =>
    String(sdp)
      .split(/\r\n|\n/)
      .filter(line => !line.startsWith('a=candidate:') || !refused(candidateHost(line)))
      .join('\r\n');
  const proto = Original.prototype;
  const { setConfiguration, addIceCandidate, setRemoteDescription } = proto;
  const methods = {
    setConfiguration(config) {
      return setConfiguration.call(this, configured(config));
    },
    addIceCandidate(candidate, ...rest) {
      if (candidate && typeof candidate === 'object' && candidate.candidate) {
        const init = {
          candidate: String(candidate.candidate),
          sdpMid: candidate.sdpMid,
          sdpMLineIndex: candidate.sdpMLineIndex,
          usernameFragment: candidate.usernameFragment,
        };
        const host = refused(candidateHost(init.candidate));
        if (host) return Promise.reject(refusal(`ICE candidate ${host}`));
        return addIceCandidate.call(this, init, ...rest);
      }
      return addIceCandidate.call(this, candidate, ...rest);
    },
    setRemoteDescription(description, ...rest) {
      if (description && typeof description === 'object' && description.sdp) {
        const copy = { type: description.type, sdp: sdpKept(description.sdp) };
        return setRemoteDescription.call(this, copy, ...rest);
      }
      return setRemoteDescription.call(this, description, ...rest);
    },
  };
  for (const [name, method] of Object.entries(methods)) {
    Object.defineProperty(proto, name, { value: method, writable: false, configurable: false });
  }
  const guarded = new Proxy(Original, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, [configured(args[0]), ...args.slice(1)], newTarget);
    },
  });
  Object.defineProperty(proto, 'constructor', { value: guarded, writable: false, configurable: false });
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
    if (name in self) Object.defineProperty(self, name, { value: guarded, writable: false, configurable: false });
  }
  Object.defineProperty(self, marker, { value: true });
}
