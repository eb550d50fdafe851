(t) => {
  const out = new Set();
  const add = e => {
    const r = e.getBoundingClientRect();
    out.add([r.x, r.y, r.width, r.height].map(Math.round).join(','));
  };
  const visit = root => {
    for (const e of root.querySelectorAll('*')) {
      if (out.size > 20000) return;
      add(e);
      if (e.shadowRoot) visit(e.shadowRoot);
      if (e.tagName === 'SLOT') for (const a of e.assignedElements({flatten: true})) { add(a); visit(a); }
    }
  };
  add(t);
  if (t.shadowRoot) visit(t.shadowRoot);
  visit(t);
  return Array.from(out);
}
