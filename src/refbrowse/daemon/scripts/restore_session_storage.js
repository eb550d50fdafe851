// Puts saved entries back only into an empty session storage of the right origin:
// later documents of the tab keep what the page itself stored.
(origin, entries) => {
  if (window.top !== window || location.origin !== origin || sessionStorage.length) return;
  for (const [k, v] of entries) sessionStorage.setItem(k, v);
}
