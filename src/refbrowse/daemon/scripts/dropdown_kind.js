// A dropdown that is not a <select>: an ARIA combobox, or an element that pops up a listbox or a menu.
// Its popup's role and the id of what it controls. A menu button drawn without those roles is a
// 'disclosure' (it says it expands or controls something, or is a <summary>) or, when it says nothing,
// 'clickable' (its click may reveal a menu); null for what a click would submit, follow or edit.
// A list a person already sees (a listbox, menu, tree, radio group or tab list shown inline) is
// {popup: its kind, shown: true}: its option is clicked where it is, with no click to open it. `open`
// is true when the dropdown's own popup is already open (a click on it would close it); `several`, when a
// list shown whole says it takes several options.
(el) => {
  const SHOWN = { listbox: 'listbox', menu: 'menu', menubar: 'menu', tree: 'tree', radiogroup: 'radiogroup',
    tablist: 'tablist' };
  const visible = (e) => !!e && e.checkVisibility({ visibilityProperty: true, opacityProperty: true })
    && e.getBoundingClientRect().height > 0;
  const own = SHOWN[(el.getAttribute('role') || '').toLowerCase()];
  if (own && visible(el)) {
    return { popup: own, controls: '', shown: true, open: true, several: el.getAttribute('aria-multiselectable') === 'true' };
  }
  const popupOf = (e) => {
    const role = (e.getAttribute('role') || '').toLowerCase();
    const popup = (e.getAttribute('aria-haspopup') || '').toLowerCase();
    if (popup === 'menu') return 'menu';
    if (role === 'combobox' || popup === 'listbox' || popup === 'true') return 'listbox';
    return '';
  };
  const controlsOf = (e) => (e.getAttribute('aria-controls') || e.getAttribute('aria-owns') || '').split(/\s+/)[0];
  const inner = popupOf(el) ? el : el.querySelector('[role=combobox],[aria-haspopup=listbox],[aria-haspopup=true]');
  if (inner) {
    const controls = controlsOf(inner);
    const open = inner.getAttribute('aria-expanded') === 'true' && visible(controls && document.getElementById(controls));
    return { popup: popupOf(inner), controls, shown: false, open };
  }
  const says = ['aria-expanded', 'aria-haspopup', 'aria-controls'].some((a) => el.hasAttribute(a));
  if (says || el.matches('summary')) return { popup: 'disclosure', controls: controlsOf(el), shown: false, open: false };
  // What a click would submit, follow or type into is not opened to see whether it is a menu.
  if (el.matches('input, select, textarea, [contenteditable=""], [contenteditable=true], [role=textbox]')) return null;
  const link = el.closest('a[href]');
  if (link && !/^(#|javascript:)/i.test(link.getAttribute('href') || '')) return null;
  const button = el.closest('button, input[type=submit], input[type=image]');
  if (button && button.type === 'submit' && button.form) return null;
  return { popup: 'clickable', controls: '', shown: false, open: false };
}
