(el) => {
  const clean = t => (t || '').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  const text = e => clean(e.innerText ?? e.textContent);
  const LEVEL = e => {
    const m = /^H([1-6])$/.exec(e.tagName);
    if (m) return Number(m[1]);
    if (!e.getAttribute || e.getAttribute('role') !== 'heading') return 0;
    return Number(e.getAttribute('aria-level') || 2);
  };
  const dt = el.closest('dt');
  if (dt) {
    const out = [text(dt)];
    for (let n = dt.nextElementSibling; n && n.tagName === 'DD'; n = n.nextElementSibling) out.push(text(n));
    return ['definition', out.join('\n')];
  }
  const dd = el.closest('dd');
  if (dd && !el.closest('p, li, pre, td')) {
    let n = dd.previousElementSibling;
    while (n && n.tagName !== 'DT') n = n.previousElementSibling;
    return ['definition', (n ? text(n) + '\n' : '') + text(dd)];
  }
  const heading = LEVEL(el) ? el : el.closest('h1, h2, h3, h4, h5, h6, [role=heading]');
  const OWN = ':scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6';
  const first = heading ? null : el.querySelector(OWN);
  const holder = ['SECTION', 'ARTICLE', 'DIV', 'MAIN'].includes(el.tagName);
  const start = heading || (first && holder ? first : null);
  if (start) {
    const level = LEVEL(start);
    const parent = start.parentElement;
    if (parent && parent.firstElementChild === start && parent.tagName === 'SECTION') {
      return ['section', text(parent)];
    }
    const out = [text(start)];
    for (let n = start.nextElementSibling; n; n = n.nextElementSibling) {
      const l = LEVEL(n) || LEVEL(n.querySelector(OWN) || n);
      if (l && l <= level) break;
      out.push(text(n));
    }
    return ['section', out.filter(Boolean).join('\n')];
  }
  const block = el.closest('p, li, dd, pre, blockquote, td, th, figure, section, article, main') || el;
  return ['block', text(block)];
}
