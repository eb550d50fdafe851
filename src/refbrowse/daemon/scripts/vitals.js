// Web vitals of the current document, measured as the web-vitals library does, from the entries
// the browser buffered since the load: LCP (the last largest-contentful-paint), CLS (the largest
// session window of layout shifts without recent input: gaps under 1 s, windows under 5 s), FCP,
// TTFB (the navigation's responseStart), INP (the slowest interaction by interactionId; Chromium
// buffers only event entries of 104 ms or more, so faster ones count as under that).
// Returns {lcp, lcpElement, cls, fcp, ttfb, inp, interactions}; a missing value is null.
async () => {
  const read = type => new Promise(resolve => {
    const seen = [];
    try {
      const po = new PerformanceObserver(list => seen.push(...list.getEntries()));
      po.observe({ type, buffered: true });
      setTimeout(() => { seen.push(...po.takeRecords()); po.disconnect(); resolve(seen); }, 50);
    } catch (e) { resolve([]); }
  });
  const [lcps, shifts, events] = await Promise.all([
    read('largest-contentful-paint'), read('layout-shift'), read('event'),
  ]);
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const last = lcps[lcps.length - 1];
  let cls = 0, win = 0, first = 0, prev = 0;
  for (const s of shifts) {
    if (s.hadRecentInput) continue;
    if (win && s.startTime - prev < 1000 && s.startTime - first < 5000) { win += s.value; }
    else { win = s.value; first = s.startTime; }
    prev = s.startTime;
    cls = Math.max(cls, win);
  }
  const worst = {};
  for (const e of events) if (e.interactionId) worst[e.interactionId] = Math.max(worst[e.interactionId] || 0, e.duration);
  const durations = Object.values(worst);
  return {
    lcp: last ? Math.max(0, last.startTime - (nav && nav.activationStart || 0)) : null,
    lcpElement: last && last.element && last.element.isConnected ? last.element : null,
    cls: shifts.length || nav ? cls : null,
    fcp: fcp ? Math.max(0, fcp.startTime - (nav && nav.activationStart || 0)) : null,
    ttfb: nav ? Math.max(0, nav.responseStart - (nav.activationStart || 0)) : null,
    inp: durations.length ? Math.max(...durations) : null,
    interactions: performance.interactionCount || 0,
  };
}
