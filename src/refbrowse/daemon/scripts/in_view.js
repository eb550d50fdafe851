(limit) => {
  const CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], '
    + '[role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], '
    + '[role=switch], [role=textbox], [role=combobox], [contenteditable=""], [contenteditable=true]';
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role=heading]';
  const ROLE = {A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', SUMMARY: 'button'};
  const INPUT = {checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button', reset: 'button',
    range: 'slider', search: 'searchbox', image: 'button'};
  const W = innerWidth, H = innerHeight;
  const found = [];
  for (const el of document.querySelectorAll(CONTROLS + ', ' + HEADINGS)) {
    if (found.length >= limit) break;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.right <= 0 || r.top >= H || r.left >= W) continue;
    const heading = el.matches(HEADINGS);
    const role = el.getAttribute('role') || (heading ? 'heading'
      : el.tagName === 'INPUT' ? (INPUT[el.type] || 'textbox') : (ROLE[el.tagName] || 'generic'));
    const name = (el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].innerText)
      || el.innerText || el.value || el.placeholder || el.alt || el.title || '')
      .replace(/\s+/g, ' ').trim().slice(0, 100);
    found.push({el, role, name, heading, level: heading ? Number(el.tagName.slice(1)) || 0 : 0});
  }
  return found;
}
