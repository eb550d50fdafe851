// A dropdown that is not a <select>: an ARIA combobox, or an element that pops up a listbox or a menu.
// Its popup's role and the id of what it controls; null when the element is neither.
(el) => {
  const popupOf = (e) => {
    const role = (e.getAttribute('role') || '').toLowerCase();
    const popup = (e.getAttribute('aria-haspopup') || '').toLowerCase();
    if (popup === 'menu') return 'menu';
    if (role === 'combobox' || popup === 'listbox' || popup === 'true') return 'listbox';
    return '';
  };
  const inner = popupOf(el) ? el : el.querySelector('[role=combobox],[aria-haspopup=listbox],[aria-haspopup=true]');
  if (!inner) return null;
  const controls = inner.getAttribute('aria-controls') || inner.getAttribute('aria-owns') || '';
  return { popup: popupOf(inner), controls: controls.split(/\s+/)[0] };
}
