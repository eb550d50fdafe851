// Ready, then the look before: the probe begins the action only when the input will follow.
// uses: input_ready, probe
(el, [probeKey, kind, aimKey, wanted]) => {
  const ready = input_ready(el, [kind, aimKey, wanted]);
  if (!ready) return null;
  if (!window[probeKey]) probe(probeKey);
  return {...ready, before: window[probeKey].begin()};
}
