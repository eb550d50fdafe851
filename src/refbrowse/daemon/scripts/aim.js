// uses: hit_test
(key) => {
  // The aimed element checked again where it is now; its point, or null (gone, moved away, covered).
  const held = window[key];
  delete window[key];
  const el = held && held.deref();
  if (!el || !el.isConnected) return null;
  const found = hit_test(el, true, '');
  return found.state === 'ok' ? found.point : null;
}
