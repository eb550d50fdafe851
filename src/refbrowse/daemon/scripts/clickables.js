(limit) => {
  const CONTROL = 'a[href], button, input, select, textarea, summary, option, label, [contenteditable=""], '
    + '[contenteditable=true], [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], '
    + '[role=menuitem], [role=option], [role=switch], [role=textbox], [role=combobox], [role=slider]';
  const PLAIN = new Set(['DIV', 'SPAN', 'LI', 'TD', 'TR', 'IMG', 'P', 'I', 'SVG', 'SECTION', 'ARTICLE', 'H1',
    'H2', 'H3', 'H4', 'H5', 'H6', 'DT', 'DD', 'FIGURE']);
  const ACTING = new Set(['pointer', 'move', 'grab']);
  const found = [];
  const visit = root => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (found.length >= limit) return;
      const tab = el.getAttribute('tabindex');
      const clicky = el.hasAttribute('onclick') || typeof el.onclick === 'function'
        || (tab !== null && Number(tab) >= 0 && PLAIN.has(el.tagName.toUpperCase()))
        || el.getAttribute('draggable') === 'true';
      let pointer = false;
      if (!clicky) {
        // a pointer says "click me", a move or grab cursor "drag me" (a palette's items, a card)
        const parent = el.parentElement || (el.getRootNode() || {}).host;
        const cursor = getComputedStyle(el).cursor;
        pointer = ACTING.has(cursor) && !(parent && getComputedStyle(parent).cursor === cursor);
      }
      if (!clicky && !pointer) continue;
      if (el.matches(CONTROL) || el.closest(CONTROL) || el.querySelector(CONTROL)) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      found.push(el);
    }
  };
  visit(document);
  return found;
}
