els => els.map(e => {
  const r = e.getBoundingClientRect();
  const text = (e.getAttribute('aria-label') || e.innerText || e.getAttribute('title')
    || e.getAttribute('alt') || '')
    .replace(/\s+/g, ' ').trim().slice(0, 80);
  return [e.tagName.toLowerCase(), text, [r.left, r.top, r.width, r.height].map(Math.round)];
})
