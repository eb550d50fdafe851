els => {
  const cell = c => {
    const copy = c.cloneNode(true);
    copy.querySelectorAll('img[alt]').forEach(i => i.replaceWith(' ' + i.alt + ' '));
    const alt = Array.from(c.querySelectorAll('img[alt]')).map(i => i.alt).join(' ');
    const text = (c.innerText || '').replace(/\s+/g, ' ').trim();
    return text && !alt ? text : (copy.textContent || '').replace(/\s+/g, ' ').trim();
  };
  const data = t => t.querySelector('th, thead, caption') !== null && !t.querySelector('table')
    && Math.max(0, ...Array.from(t.rows).map(r => r.cells.length)) > 1;
  return els.flatMap(e => e.matches('table') ? [e] : Array.from(e.querySelectorAll('table')))
    .map((t, i) => [data(t) ? 0 : 1, i, Array.from(t.rows).map(r => Array.from(r.cells).map(cell))])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(x => x[2]);
}
