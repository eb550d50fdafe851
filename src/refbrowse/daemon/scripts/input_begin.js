// Ready, then the look before: the probe begins the action only when the input will follow. The
// page's state (`page_state`) comes back with it, for settling on until the page has answered.
// uses: input_ready, probe, page_state
(el, [probeKey, kind, aimKey, wanted]) => {
  const ready = input_ready(el, [kind, aimKey, wanted]);
  if (!ready) return null;
  if (!window[probeKey]) probe(probeKey);
  return {...ready, before: window[probeKey].begin(), shown: page_state()};
}
