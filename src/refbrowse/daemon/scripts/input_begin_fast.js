// `input_begin` in a document whose probe is installed already: false when it is not.
(el, [probeKey, kind, aimKey, wanted]) =>
  window[probeKey] ? window[probeKey].beginInput(el, kind, aimKey, wanted) : false
