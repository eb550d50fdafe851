// Whether the held box is checked now; null when it went away.
(key) => {
  const held = window[key];
  delete window[key];
  const el = held && held.deref();
  return el && el.isConnected ? el.checked : null;
}
