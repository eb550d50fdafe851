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
  // An ARIA grid or table (a data grid drawn with divs): its rows and cells by role. A grid that pins
  // columns draws each row in two halves that share an aria-rowindex: they read as one row.
  const ARIA = '[role=grid], [role=table], [role=treegrid]';
  const CELLS = '[role=gridcell], [role=cell], [role=columnheader], [role=rowheader]';
  const own = (el, top) => el.parentElement && el.parentElement.closest(ARIA) === top;
  const ariaRows = g => {
    const rows = [];
    const at = new Map();
    for (const row of g.querySelectorAll('[role=row]')) {
      if (!own(row, g)) continue;
      const cells = Array.from(row.querySelectorAll(CELLS)).filter(c => c.closest('[role=row]') === row).map(cell);
      const index = row.getAttribute('aria-rowindex');
      if (index && at.has(index)) { at.get(index).push(...cells); continue; }
      if (index) at.set(index, cells);
      rows.push(cells);
    }
    return rows.filter(r => r.some(Boolean));
  };
  const found = new Set();
  for (const e of els) {
    if (e.matches('table') || e.matches(ARIA)) found.add(e);
    else e.querySelectorAll('table, ' + ARIA).forEach(t => found.add(t));
  }
  return Array.from(found)
    .map((t, i) => t.tagName === 'TABLE'
      ? [data(t) ? 0 : 1, i, Array.from(t.rows).map(r => Array.from(r.cells).map(cell))]
      : [0, i, ariaRows(t)])
    .filter(x => x[2].length)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(x => x[2]);
}
