// What `fill` sets on an element: 'text', 'password', 'combobox' (a field with a list), 'checkbox'
// (a box or switch), 'radio', 'slider' (a native range or an ARIA slider),
// 'select' (a <select>), 'readonly' (a field the page fills itself), 'cell' (a grid's cell edited in
// place, holding no control of its own), 'other' (maybe a dropdown drawn
// by a component library) or '' (nothing to fill).
// A label, or an element inside one, stands for the control it labels, as in Playwright's own fill.
// uses: slider_handle
(e) => {
  const roleOf = (el) => (el.getAttribute('role') || '').toLowerCase();
  const boxRoles = ['checkbox', 'switch', 'menuitemcheckbox'];
  const native = (el) => ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable;
  if (!native(e) && !roleOf(e)) {
    const label = e.closest('label');
    if (label && label.control) e = label.control;
  }
  const tag = e.tagName;
  const role = roleOf(e);
  if (tag === 'SELECT') return 'select';
  if (tag === 'INPUT') {
    const type = (e.type || 'text').toLowerCase();
    if (type === 'checkbox') return 'checkbox';
    if (type === 'radio') return 'radio';
    if (type === 'range') return 'slider';
    if (['button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(type)) return '';
    if (type === 'password' || /password/i.test(e.autocomplete || '')) return 'password';
    // typed into, then its option chosen: a combobox, or a search field that lists as one types (Select2's)
    const lists = ['list', 'both'].includes((e.getAttribute('aria-autocomplete') || '').toLowerCase());
    if (role === 'combobox' || lists) return e.readOnly ? 'other' : 'combobox';
    if (e.readOnly) return 'readonly';
    return 'text';
  }
  if (boxRoles.includes(role)) return 'checkbox';
  if (role === 'radio' || role === 'menuitemradio') return 'radio';
  if (role === 'slider' || slider_handle(e) !== null) return 'slider';
  if (tag === 'TEXTAREA') return e.readOnly ? 'readonly' : 'text';
  if (e.isContentEditable) return 'text';
  const cell = role === 'gridcell' || (['TD', 'TH'].includes(tag) && !!e.closest('[role=grid], [role=treegrid]'));
  if (cell && !e.querySelector('input, select, textarea, button, a[href], [role=button], [role=checkbox]')) {
    return e.getAttribute('aria-readonly') === 'true' ? 'readonly' : 'cell';
  }
  return 'other';
}
