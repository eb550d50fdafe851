// uses: dom
// The buttons, links, menu items and options a person sees, through open shadow roots. Called before a menu
// button is clicked (no `before`), it returns them as a Set; called after with that Set, the ones the
// click revealed: the names a person reads (its label, else its text), in page order.
(before) => {
  const ITEMS = 'a[href], button, summary, input[type=button], input[type=submit], [role=button], [role=link], '
    + '[role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option]';
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };
  const all = dom.shadowRoots().flatMap((root) => Array.from(root.querySelectorAll(ITEMS))).filter(shown);
  if (!before) return new Set(all);
  const nameOf = (e) => (e.getAttribute('aria-label') || e.innerText || e.value || e.title || '')
    .replace(/\s+/g, ' ').trim();
  return all.filter((e) => !before.has(e)).map(nameOf).filter(Boolean);
}
