// Playwright's selection: the option chosen, then `input` and `change` as a person's choice fires them.
([key, value]) => {
  const held = window[key];
  delete window[key];
  const el = held && held.deref();
  if (!el || !el.isConnected) return false;
  el.value = undefined;
  for (const o of el.options) if (o.value === value) { o.selected = true; break; }
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}
