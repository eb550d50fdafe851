(el) => {
  const clean = t => (t || '').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  const text = e => clean(e.innerText ?? e.textContent);
  const LEVEL = e => {
    const m = /^H([1-6])$/.exec(e.tagName);
    if (m) return Number(m[1]);
    if (!e.getAttribute || e.getAttribute('role') !== 'heading') return 0;
    return Number(e.getAttribute('aria-level') || 2);
  };
  // A definition is all its terms (Sphinx writes one per signature: `lru_cache(user_function)`,
  // `lru_cache(maxsize=128, typed=False)`) and all its definitions, wherever in it the element is.
  const definition = item => {
    let first = item;
    while (first.previousElementSibling && first.previousElementSibling.tagName === 'DT') first = first.previousElementSibling;
    if (first === item && item.tagName === 'DD') {
      let n = item.previousElementSibling;
      while (n && n.tagName === 'DD') n = n.previousElementSibling;
      if (n && n.tagName === 'DT') return definition(n);
    }
    const out = [];
    let n = first;
    for (; n && n.tagName === 'DT'; n = n.nextElementSibling) out.push(text(n));
    for (; n && n.tagName === 'DD'; n = n.nextElementSibling) out.push(text(n));
    return ['definition', out.filter(Boolean).join('\n')];
  };
  const dt = el.closest('dt');
  if (dt) return definition(dt);
  const dd = el.closest('dd');
  if (dd && !el.closest('p, li, pre, td')) return definition(dd);
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
  // A section's toggle ("Parameters" above the table it shows or hides): that section, not the page.
  const toggle = el.closest('[aria-expanded], [aria-controls], summary');
  if (toggle) {
    const ids = (toggle.getAttribute('aria-controls') || '').split(/\s+/).filter(Boolean);
    const panels = ids.map(id => document.getElementById(id)).filter(p => p && !p.contains(toggle));
    if (panels.length) return ['section', [text(toggle), ...panels.map(text)].filter(Boolean).join('\n')];
    // else the smallest container that holds more than the toggle's own words: its header and content
    const words = e => text(e).replace(/\s+/g, '');
    const own = words(toggle).length;
    for (let n = toggle.parentElement; n && !n.matches('main, body, [role=main]'); n = n.parentElement) {
      if (words(n).length > own) return ['section', text(n)];
    }
  }
  const block = el.closest('p, li, dd, pre, blockquote, td, th, figure, section, article, main') || el;
  return ['block', text(block)];
}
