() => {
  const n = performance.getEntriesByType('navigation')[0];
  if (!n) return null;
  const span = (a, b) => (a > 0 && b >= a ? b - a : 0);
  return [
    ['dns', span(n.domainLookupStart, n.domainLookupEnd)],
    ['tcp', span(n.connectStart, n.connectEnd)],
    ['tls', n.secureConnectionStart > 0 ? span(n.secureConnectionStart, n.connectEnd) : 0],
    ['ttfb', span(n.requestStart, n.responseStart)],
    ['download', span(n.responseStart, n.responseEnd)],
    ['dom parsed', span(n.responseEnd, n.domInteractive)],
    ['dom ready', n.domContentLoadedEventEnd],
    ['load', n.loadEventEnd],
    ['total', n.duration],
  ];
}
