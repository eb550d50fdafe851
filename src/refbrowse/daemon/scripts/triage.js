// uses: dom, reach
() => {
  const vw = innerWidth, vh = innerHeight;
  const roots = dom.shadowRoots();
  const REACH_LIMIT = 400;
  const deep = sel => roots.length === 1 ? Array.from(document.querySelectorAll(sel))
    : roots.flatMap(r => Array.from(r.querySelectorAll(sel)));
  const up = n => n.parentElement || ((n.getRootNode() || {}).host) || null;
  const visible = e => {
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05;
  };
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const flat = t => (t || '').replace(/\s+/g, ' ').trim();
  const byId = (e, ids) => (ids || '').split(/\s+/).filter(Boolean)
    .map(id => e.getRootNode().getElementById(id))
    .map(t => t ? flat(t.innerText || t.textContent) : '')
    .filter(Boolean).join(' ');
  const fieldName = e => {
    const f = e.querySelector('input:not([type=hidden]), textarea, [role=searchbox]');
    return f ? f.getAttribute('aria-label') || f.placeholder : '';
  };
  // A layer without a name of its own is named by its field (a search box) before its text.
  const label = e => flat(e.getAttribute('aria-label') || byId(e, e.getAttribute('aria-labelledby'))
    || fieldName(e) || e.innerText).slice(0, 80);
  const fixed = e => {
    for (let n = e, i = 0; n && n !== document.body && i < 4; n = up(n), i++) {
      const p = getComputedStyle(n).position;
      if (p === 'fixed' || p === 'sticky') return true;
    }
    return false;
  };
  const contains = (a, b) => { for (let n = b; n; n = up(n)) if (n === a) return true; return false; };
  const CONTROLS = 'a[href], button, input, select, textarea, [role=button], [role=link], [role=checkbox], '
    + '[role=switch], [role=tab], [tabindex]';
  const overlays = [];
  const add = (kind, e) => {
    if (overlays.some(o => contains(o.el, e) || contains(e, o.el))) return;
    overlays.push({kind, el: e});
  };
  deep('dialog, [aria-modal="true"], [role=alertdialog]').forEach(e => {
    const modal = e.matches('dialog') ? e.matches(':modal') : true;
    if (modal && visible(e)) add('modal dialog', e);
  });
  // Banners and messages are found by their words in a class, id or label, in one pass over the
  // elements that have any (two selectors of substrings took 18 ms on a docs page of 17,000 elements).
  const CONSENT = /cookie|consent|gdpr/i, CONSENT_LABEL = /cookie|consent/i;
  const MESSAGE_CLASS =
    /toast|snackbar|banner|notice|flash|error|invalid-feedback|alert|notification|(ok|success|info|warning)-message/i;
  const attr = (e, name) => e.getAttribute(name) || '';
  const labelled = deep('[class], [id], [aria-label], [role], [aria-live]');
  labelled.filter(e => (CONSENT.test(attr(e, 'id')) || CONSENT.test(attr(e, 'class'))
    || CONSENT_LABEL.test(attr(e, 'aria-label'))) && visible(e) && fixed(e)
    && e.querySelector('button, a, [role=button], input')).forEach(e => add('cookie banner', e));
  const deepHit = (x, y) => dom.elementAt(x, y);
  const controlsIn = e => Array.from(e.querySelectorAll(CONTROLS)).filter(visible);
  const onTop = e => {
    const r = e.getBoundingClientRect(), hit = deepHit(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && contains(e, hit);
  };
  // A backdrop holds no controls: the layer is the nearest ancestor whose controls sit above it.
  const layerOf = n => {
    for (let a = n, i = 0; a && a !== document.body && i < 4; a = up(a), i++)
      if (controlsIn(a).some(onTop)) return a;
    return n;
  };
  for (const [fx, fy] of [[.5, .5], [.25, .25], [.75, .75]]) {
    for (let n = deepHit(vw * fx, vh * fy); n && n !== document.body; n = up(n)) {
      const s = getComputedStyle(n), r = n.getBoundingClientRect();
      if (s.position === 'fixed' && r.width * r.height >= 0.6 * vw * vh && s.pointerEvents !== 'none') {
        add('full-screen layer', layerOf(n));
        break;
      }
      // A backdrop placed absolutely (Node-RED's shades: no words or controls, over the whole window): the
      // layer is the element beside it whose controls stand above it, its dialog.
      if (s.position === 'absolute' && !n.textContent.trim() && !n.querySelector(CONTROLS)
          && r.width * r.height >= 0.9 * vw * vh && s.pointerEvents !== 'none') {
        const above = Array.from((up(n) || document.body).children)
          .find(sib => sib !== n && visible(sib) && controlsIn(sib).some(onTop));
        add('full-screen layer', above || n);
        break;
      }
    }
  }
  const passwords = deep('input[type=password]');
  const marks = [];
  // A roving tabindex: the rows of a list or grid are tabindex=-1 but for the focused one, and the
  // arrow keys move it; every row is a control. Known by a sibling that is in the tab order.
  const inOrder = new Map();
  const roving = e => {
    const parent = e.parentElement;
    if (!parent) return false;
    if (!inOrder.has(parent)) {
      inOrder.set(parent, Array.from(parent.children).some(s => s.hasAttribute('tabindex')
        && Number(s.getAttribute('tabindex')) >= 0));
    }
    return inOrder.get(parent);
  };
  // A field with nothing to name it (no label, aria-label, placeholder or title) but a form name.
  const TEXTLESS = /^(submit|button|reset|image|hidden|checkbox|radio|range|color|file)$/;
  const unnamed = e => !!e.name && (e.tagName === 'SELECT' || e.tagName === 'TEXTAREA'
    || (e.tagName === 'INPUT' && !TEXTLESS.test(e.type))) && !(e.labels && e.labels.length)
    && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby') && !e.placeholder && !e.title;
  // The chosen filter, page or facet: aria-current, or the one item of its list that the page's
  // class marks chosen (Django's `<li class="selected"><a>`), which no accessibility tree says.
  const CHOSEN = /^(selected|active|current|is-active|is-selected|is-current|chosen)$/;
  const CHOSEN_ITEM = ':is(.selected, .active, .current, .is-active, .is-selected, .is-current, .chosen)'
    + ' > a[href], a[href]:is(.selected, .active, .current, .is-active, .is-selected, .is-current, .chosen)';
  const chose = el => !!el && Array.from(el.classList).some(c => CHOSEN.test(c));
  const oneOfSeveral = item => {
    const kin = item.parentElement ? Array.from(item.parentElement.children).filter(s => s.tagName === item.tagName) : [];
    return kin.length > 1 && kin.some(s => s !== item && !chose(s) && !chose(s.querySelector('a[href]')));
  };
  const chosenMark = e => {
    const current = e.getAttribute('aria-current');
    if (current && current !== 'false') return 'current';
    if (e.tagName !== 'A') return '';
    if (chose(e) && oneOfSeveral(e.parentElement && e.parentElement.tagName === 'LI' ? e.parentElement : e))
      return 'chosen';
    const item = e.parentElement;
    return item && chose(item) && item.querySelector('a[href]') === e && oneOfSeveral(item) ? 'chosen' : '';
  };
  // The page's colour scheme as a person sees it: the first painted background behind the middle of
  // the window that covers much of it (an app paints its own root, not the body), dark when its
  // luminance is low. A modal's backdrop (a translucent layer over the whole window) shows the page
  // beneath it: passed over, as everything painted at that point is looked at, top first (the body's
  // colour fills the window even where a short body ends).
  const scheme = () => {
    for (const n of [...document.elementsFromPoint(vw / 2, vh / 2), document.body, document.documentElement]) {
      if (!n) continue;
      const style = getComputedStyle(n), m = style.backgroundColor.match(/[\d.]+/g);
      if (!m || (m.length > 3 && Number(m[3]) < 1) || Number(style.opacity) < 1) continue;
      const box = n.getBoundingClientRect();  // a selected option's or a button's colour is not the page's
      if (box.width * box.height < 0.4 * vw * vh && n !== document.body && n !== document.documentElement) continue;
      const [r, g, b] = m.map(Number);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b < 100 ? 'dark' : 'light';
    }
    return 'light';  // nothing painted: the browser's white canvas
  };
  // The header of the table column that holds a box no label names, one of several in its row
  // (Roundup's search grid: one column to show a field, one to sort on it); the accessibility
  // tree drops the empty cells that would place it, so the column is counted here, spans included.
  const column = cell => {
    let at = 0;
    for (const c of cell.parentElement.cells) {
      if (c === cell) return at;
      at += c.colSpan || 1;
    }
    return -1;
  };
  const columnHeader = e => {
    const cell = e.closest('td, th'), table = cell && cell.closest('table');
    const head = table && table.rows[0];
    if (!head || head === cell.parentElement || !Array.from(head.cells).every(c => c.tagName === 'TH')) return '';
    // one box a row (a change list's) is told apart by its row; several, by their columns
    if (cell.parentElement.querySelectorAll('input[type=checkbox], input[type=radio]').length < 2) return '';
    const at = column(cell);
    const header = Array.from(head.cells).find(h => column(h) <= at && at < column(h) + (h.colSpan || 1));
    return header ? flat(header.textContent).slice(0, 40) : '';
  };
  const MARKED = 'input, select, textarea, summary, iframe, frame, [aria-haspopup], [tabindex], '
    + '[aria-required], [aria-expanded], [aria-invalid], [role=slider], [role=spinbutton], '
    + '[aria-current]:not([aria-current=false]), ' + CHOSEN_ITEM;
  for (const e of deep(MARKED)) {
    if (marks.length >= 5000) break;
    const f = [];
    let note = '';
    if (e.required || e.getAttribute('aria-required') === 'true') f.push('required');
    if (e.type === 'password') f.push('password');
    const details = e.tagName === 'SUMMARY' && e.parentElement && e.parentElement.tagName === 'DETAILS';
    if (details) f.push('toggle', e.parentElement.open ? 'open' : 'collapsed');
    const pop = e.getAttribute('aria-haspopup');
    if (pop && pop !== 'false') f.push('popup');
    const expanded = e.getAttribute('aria-expanded');
    if (expanded === 'false' || (pop && pop !== 'false' && expanded === null)) f.push('collapsed');
    const tab = e.getAttribute('tabindex');
    if (tab !== null && (Number(tab) >= 0 || roving(e))) f.push('focusable');
    if (e.tagName === 'IFRAME' || e.tagName === 'FRAME')
      note = flat(e.title || e.name || e.getAttribute('aria-label'));
    if (e.getAttribute('aria-invalid') === 'true') {
      f.push('invalid');
      note = byId(e, [e.getAttribute('aria-errormessage'), e.getAttribute('aria-describedby')].join(' '));
    }
    const role = e.getAttribute('role');
    const range = e.tagName === 'INPUT' && e.type === 'range';
    if (((role === 'slider' || role === 'spinbutton') && e.tagName !== 'INPUT' || range) && !note) {
      // a drawn slider's value, which Playwright's snapshot leaves out; a range's own words for its
      // value (a slider of sizes says "M", not its index)
      const value = flat(e.getAttribute('aria-valuetext') || (range ? '' : e.getAttribute('aria-valuenow')) || '');
      if (value) {
        f.push('valued');
        note = value;
      }
    }
    if (!note && /^(checkbox|radio)$/.test(e.type) && !(e.labels && e.labels.length)
        && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby') && !e.title) {
      note = columnHeader(e);
      if (note) f.push('column');
    }
    if (!note && unnamed(e)) {
      f.push('named');  // only its form name says what it is (`__login_name`): the snapshot shows it
      note = flat(e.name).slice(0, 60);
    }
    const chosen = chosenMark(e);
    if (chosen) f.push(chosen);
    if (!f.length && !note) continue;
    const r = e.getBoundingClientRect();  // only for elements with something to say: rects cost
    if (r.width >= 1 && r.height >= 1)
      marks.push([[r.x, r.y, r.width, r.height].map(Math.round), f.join(' '), note.slice(0, 200)]);
  }
  const message = e => {
    const role = e.getAttribute('role'), live = e.getAttribute('aria-live');
    return role === 'alert' || role === 'status' || (live !== null && live !== 'off')
      || MESSAGE_CLASS.test(attr(e, 'class')) || e.classList.contains('messagelist');
  };
  const messages = [];
  for (const e of labelled) {
    if (messages.length >= 50) break;
    if (!message(e)) continue;
    const t = flat(e.innerText);
    // a counter badge ("0", "12") says no message
    if (t && t.length <= 300 && !/^\d+$/.test(t) && visible(e)) messages.push(t);
  }
  const fieldsOf = root => Array.from(root.querySelectorAll('input:not([type=hidden]), select, textarea'));
  const loginForm = passwords.filter(visible).some(p => {
    const scope = p.closest('form') || p.getRootNode();
    const inputs = fieldsOf(scope).filter(visible);
    const secret = inputs.filter(e => e.type === 'password');
    const users = inputs.filter(e => ['text', 'email', 'tel'].includes(e.type));
    return secret.length === 1 && users.length >= 1 && users.length <= 3
      && p.getAttribute('autocomplete') !== 'new-password';
  });
  const fields = deep('input:not([type=hidden]), select, textarea').length;
  // textContent, not innerText: it needs no layout, and this only estimates how much text there is.
  const text = (document.body ? document.body.textContent : '') || '';
  const title = String(document.title).slice(0, 1000);
  const heading = String((document.querySelector('h1') || {}).innerText || '').slice(0, 1000);
  // What the page says at its top; textContent of a few elements, as innerText of a long page costs.
  const opening = [title, ...Array.from(document.querySelectorAll('h1, h2, [role=status], p'))
    .slice(0, 12).map(e => e.textContent.slice(0, 300))].join(' ');
  return {
    timeOrigin: String(performance.timeOrigin), title, url: location.href,
    viewport: [vw, vh],
    scrolled: Math.round(window.scrollY || 0),
    scheme: scheme(),
    overlays: overlays.map(o => ({kind: o.kind, label: label(o.el), box: box(o.el),
      controls: controlsIn(o.el).map(e => box(e).map(Math.round))})),
    passwords: passwords.map(p => p.value).filter(Boolean),
    marks, messages,
    reach: reach(REACH_LIMIT, roots),
    loginForm,
    captchaInPage: !!document.querySelector('.g-recaptcha, .h-captcha, .cf-turnstile, [data-sitekey]'),
    forms: document.forms.length, fields,
    links: document.links.length,
    articles: document.querySelectorAll('article').length,
    paragraphs: Array.from(document.querySelectorAll('p')).filter(p => p.textContent.length > 80).length,
    textLength: text.length,
    searchSays: /search results|results? for\b|no results|nothing matched|did not match any/i.test(opening)
      || /\b[\d,.]+\s+(results|matches|hits)\b/i.test(opening),
    errorHint: /\b(404|403|500|502|503|not found|page not found|forbidden|server error|unavailable)\b/i
      .test(title + ' ' + heading),
  };
}
