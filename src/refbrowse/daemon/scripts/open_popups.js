// Pickers, lists and menus that float open over the page: what a person sees still open after an
// action (a calendar left open over the Submit button). Called as (step):
//   "before"  remembers which are open now; returns nothing
//   "after"   those open now, at most 3, outermost only: [{kind, name, items, was}], `was` when it
//             was open before too
(step) => {
  const KEY = Symbol.for('refbrowse.openPopups');
  const CLASSES = /(^|[-_\s])(date-?picker|datepicker|calendar|picker|dropdown|popover|popup|autocomplete|typeahead|suggest\w*|menu|listbox|results)([-_\s]|$)/i;
  const ROLES = ['listbox', 'menu', 'tree', 'grid', 'dialog'];
  // What floats open is on top where it is: the page is sampled at points this far apart (CSS px),
  // and each point's element and its ancestors are looked at, whatever the document's size.
  const SPACING = 60;
  const ANCESTORS = 12;
  const floating = e => {
    for (let n = e, depth = 0; n && n !== document.body && depth < 4; n = n.parentElement, depth++) {
      const position = getComputedStyle(n).position;
      if (position === 'absolute' || position === 'fixed') return true;
    }
    return false;
  };
  const shown = e => {
    if (!e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    const r = e.getBoundingClientRect();
    if (r.width < 40 || r.height < 20) return false;
    if (r.width * r.height > innerWidth * innerHeight * 0.6) return false;  // a page-wide overlay: said elsewhere
    if (r.width >= innerWidth * 0.9 || r.height >= innerHeight * 0.9) return false;  // a bar along the page
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 20), 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    return !!hit && (e === hit || e.contains(hit));  // on top where it is
  };
  const candidate = e => {
    const role = e.getAttribute('role');
    if (role && ROLES.includes(role)) return role !== 'dialog' || e.getAttribute('aria-modal') !== 'true';
    return typeof e.className === 'string' && CLASSES.test(e.className) || CLASSES.test(e.id);
  };
  const kindOf = e => {
    const words = `${e.className} ${e.id}`;
    if (/date|calendar|picker/i.test(words) || e.querySelector('[role=grid], table td a, .day, [class*=day]')) {
      return 'calendar';
    }
    if (e.getAttribute('role') === 'dialog') return 'dialog';  // a colour picker's, a popover's panel
    const role = e.getAttribute('role') || e.querySelector('[role=listbox], [role=menu]')?.getAttribute('role');
    if (role === 'menu' || /menu/i.test(words) && !/listbox|results|autocomplete/i.test(words)) return 'menu';
    return 'list';
  };
  // A calendar by its month ("June 2024"), a list or menu by its label, else by its count of items.
  const TITLES = ['[class*=title]', '[class*=month]', 'caption', '[role=heading]', '[class*=header]'];
  const nameOf = (e, kind) => {
    const label = e.getAttribute('aria-label');
    if (label) return label.trim().slice(0, 60);
    if (kind !== 'calendar') return '';
    for (const selector of TITLES) {
      const title = e.querySelector(selector);
      const text = title && title.innerText.replace(/\b(Prev|Next|Previous)\b/g, '').replace(/\s+/g, ' ').trim();
      if (text) return text.slice(0, 60);
    }
    return '';
  };
  const itemsOf = e => e.querySelectorAll('[role=option], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], li').length;
  const open = () => {
    const found = [];
    const looked = new Set();
    for (let y = SPACING / 2; y < innerHeight; y += SPACING) {
      for (let x = SPACING / 2; x < innerWidth; x += SPACING) {
        let outer = null;
        for (let e = document.elementFromPoint(x, y), depth = 0; e && e !== document.body && depth < ANCESTORS;
          e = e.parentElement, depth++) {
          if (looked.has(e)) { if (found.includes(e)) outer = e; continue; }
          looked.add(e);
          if (candidate(e) && floating(e) && shown(e)) outer = e;
        }
        if (outer && !found.includes(outer)) found.push(outer);
      }
    }
    return found.filter(e => !found.some(f => f !== e && f.contains(e)));
  };
  // What floats open the first time a document is looked at is part of the page (a sidebar, a
  // banner), not something an action left open: never said.
  const state = window[KEY] || (window[KEY] = { page: new WeakSet(open()), was: new WeakSet() });
  if (step === 'before') {
    state.was = new WeakSet(open());
    return null;
  }
  const was = state.was;
  return open().filter(e => !state.page.has(e)).slice(0, 3).map(e => {
    const kind = kindOf(e);
    return { kind, name: nameOf(e, kind), items: kind === 'calendar' ? 0 : itemsOf(e), was: was.has(e) };
  });
}
