// In a worker (dedicated, shared or service) of a remote browser before the worker's own script runs, or
// in a page or frame before its documents' scripts: the socket constructors named in `names` (WebSocket,
// WebSocketStream, WebTransport) refuse a URL whose host is outside BROWSE_ALLOWED_HOSTS. `patterns` holds
// one regular expression per allowed host pattern (`Policy.host_regexes`). The constructors are replaced
// for good, and so is each prototype's `constructor`, the one other way to them.
(patterns, names) => {
  const allowed = patterns.map(source => new RegExp('^(?:' + source + ')$', 's'));
  const refusedHost = url => {
    let parts;
    try {
      parts = new URL(String(url), self.location.href);
    } catch (e) {
      return '';  // not a URL: the real constructor throws its own error
    }
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(parts.protocol)) return '';
    const host = parts.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    return allowed.some(pattern => pattern.test(host)) ? '' : host;
  };
  for (const name of names) {
    const original = self[name];
    if (typeof original !== 'function') continue;
    const guarded = new Proxy(original, {
      construct(target, args, newTarget) {
        const host = refusedHost(args[0]);
        if (host) {
          throw new DOMException(`${name} to ${host} refused: outside BROWSE_ALLOWED_HOSTS`, 'SecurityError');
        }
        return Reflect.construct(target, args, newTarget);
      },
    });
    Object.defineProperty(original.prototype, 'constructor', { value: guarded, writable: false, configurable: false });
    Object.defineProperty(self, name, { value: guarded, writable: false, configurable: false, enumerable: false });
  }
}
