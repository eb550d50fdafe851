() => {
  const a = document.activeElement;
  if (!a || a === document.body || a === document.documentElement) return '';
  return a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + (a.name ? `[name=${a.name}]` : '');
}
