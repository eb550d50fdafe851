() => Array.from(document.querySelectorAll('a[href], area[href]')).map(a => {
  const img = a.querySelector('img[alt]');
  const label = a.innerText || a.getAttribute('aria-label') || a.title || (img && img.alt) || '';
  return [label.replace(/\s+/g, ' ').trim(), a.href];
})
