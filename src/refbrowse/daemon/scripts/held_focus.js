// The held element focused with its text selected, as Playwright's fill does before it inserts.
(key) => {
  const held = window[key];
  const el = held && held.deref();
  if (!el || !el.isConnected) return false;
  el.focus();
  el.select();
  return document.activeElement === el || el.getRootNode().activeElement === el;
}
