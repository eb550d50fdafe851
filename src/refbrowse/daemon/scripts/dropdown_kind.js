// A dropdown that is not a <select>: an ARIA combobox, or an element that pops up a listbox or a menu.
// Its popup's role and the id of what it controls. A menu button drawn without those roles is a
// 'disclosure' (it says it expands or controls something, or is a <summary>) or, when it says nothing,
// 'clickable' (its click may reveal a menu); null for what a click would submit, follow or edit.
(el) => {
  const popupOf = (e) => {
    const role = (e.getAttribute('role') || '').toLowerCase();
    const popup = (e.getAttribute('aria-haspopup') || '').toLowerCase();
    if (popup === 'menu') return 'menu';
    if (role === 'combobox' || popup === 'listbox' || popup === 'true') return 'listbox';
    return '';
  };
  const controlsOf = (e) => (e.getAttribute('aria-controls') || e.getAttribute('aria-owns') || '').split(/\s+/)[0];
  const inner = popupOf(el) ? el : el.querySelector('[role=combobox],[aria-haspopup=listbox],[aria-haspopup=true]');
  if (inner) return { popup: popupOf(inner), controls: controlsOf(inner) };
  const says = ['aria-expanded', 'aria-haspopup', 'aria-controls'].some((a) => el.hasAttribute(a));
  if (says || el.matches('summary')) return { popup: 'disclosure', controls: controlsOf(el) };
  // What a click would submit, follow or type into is not opened to see whether it is a menu.
  if (el.matches('input, select, textarea, [contenteditable=""], [contenteditable=true], [role=textbox]')) return null;
  const link = el.closest('a[href]');
  if (link && !/^(#|javascript:)/i.test(link.getAttribute('href') || '')) return null;
  const button = el.closest('button, input[type=submit], input[type=image]');
  if (button && button.type === 'submit' && button.form) return null;
  return { popup: 'clickable', controls: '' };
}
