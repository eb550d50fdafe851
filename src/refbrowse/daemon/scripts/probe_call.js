// One op of the probe, as [value, extra] (see the probe's `call`), installing the probe first in a
// document that has none.
// uses: probe
([key, op, args, also]) => {
  if (!window[key]) probe(key);
  return window[key].call(op, args, also);
}
