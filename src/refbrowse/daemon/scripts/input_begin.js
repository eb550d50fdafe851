// Ready, then the look before: the probe begins the action only when the input will follow (see the
// probe's `beginInput`), installing the probe first in a document that has none.
// uses: probe
(el, [probeKey, kind, aimKey, wanted]) => {
  if (!window[probeKey]) probe(probeKey);
  return window[probeKey].beginInput(el, kind, aimKey, wanted);
}
