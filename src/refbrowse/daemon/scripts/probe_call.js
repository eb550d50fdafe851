// uses: probe
([key, op, args]) => {
  if (!window[key]) probe(key);
  return window[key][op](...args);
}
