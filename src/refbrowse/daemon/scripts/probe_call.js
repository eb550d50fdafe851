// One call on the probe, installing it first in a document that has none. With `also`, the value
// comes back as [value, extra] once known: `extra.shown` is the page's state (`page_state`), and
// `extra.held` what the element held under `also.held` holds now (`element_state`; null when it
// went), so that an action's looks need no call of their own for these.
// uses: probe, page_state, element_state
([key, op, args, also]) => {
  if (!window[key]) probe(key);
  const value = window[key][op](...args);
  if (!also) return value;
  const extra = () => {
    const out = {};
    if (also.shown) out.shown = page_state();
    if (also.held) {
      const held = window[also.held];
      delete window[also.held];
      const el = held && held.deref();
      out.held = el && el.isConnected ? element_state(el) : null;
    }
    return out;
  };
  return value instanceof Promise ? value.then(v => [v, extra()]) : [value, extra()];
}
