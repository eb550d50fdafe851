// Whether the held box is checked now; null when it went away. It stays held: the look after the
// action reads what it holds then.
(key) => {
  const held = window[key];
  const el = held && held.deref();
  return el && el.isConnected ? el.checked : null;
}
