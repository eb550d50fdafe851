// uses: dom, colour_name, slider_handle
// What a person could act on that the accessibility tree does not call a control: elements with a
// click, press or key listener of their own or caught by a delegating ancestor (jQuery's selectors, a
// list's items, `[data-handler]`), React's and Vue's handlers, `tabindex` elements, sortable and
// draggable items, editable areas, and icon controls with no name. Each comes back as
// [id, box, role, name, flags, value (an editable area's text)]: the id stays the element's for as long as the page lives (the lists of
// the listener hook hold it), so its ref does too. At most `limit`, the visible ones.
(limit, roots = dom.shadowRoots()) => {
  const key = Symbol.for('refbrowse.reach');
  const state = window[key] || (() => {
    const made = {refs: [], types: new WeakMap(), handlers: new WeakMap(), ids: new WeakMap(), next: 1,
      found: [], dropped: 0};
    Object.defineProperty(window, key, {value: made});
    return made;
  })();
  const CONTROL = 'a[href], button, input, select, textarea, summary, option, label, iframe, '
    + '[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], '
    + '[role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=switch], [role=textbox], '
    + '[role=combobox], [role=slider], [role=spinbutton], [role=treeitem], [role=gridcell], [role=searchbox]';
  const ITEMS = '[data-handler], [data-action], [data-event], [data-command], a:not([href])';
  const BROAD = new Set(['HTML', 'BODY', 'HEAD']);
  const SHAPES = {circle: 'circle', ellipse: 'ellipse', rect: 'rectangle', polygon: 'polygon', path: 'shape',
    polyline: 'line', line: 'line'};
  // What takes focus or a click to scroll or hold others (a code block, a dialog, a panel) is no control.
  const REGIONS = new Set(['PRE', 'CODE', 'MAIN', 'ARTICLE', 'SECTION', 'DIALOG', 'FORM', 'TABLE', 'UL', 'OL',
    'NAV', 'ASIDE', 'HEADER', 'FOOTER', 'IFRAME']);
  const small = el => {
    const r = el.getBoundingClientRect();
    return r.width * r.height <= 0.25 * innerWidth * innerHeight && el.textContent.length <= 400;
  };
  const flat = t => (t || '').replace(/[\ue000-\uf8ff]/g, '').replace(/\s+/g, ' ').trim();
  const up = n => n.parentElement || ((n.getRootNode() || {}).host) || null;
  const candidates = new Map();  // element -> flags
  const add = (el, flag) => {
    if (!el || BROAD.has(el.tagName) || candidates.size >= limit * 4) return;
    const had = candidates.get(el);
    if (had) had.add(flag); else candidates.set(el, new Set([flag]));
  };
  const listened = [];
  for (const ref of state.refs) {
    const el = ref.deref();
    if (el && el.isConnected) listened.push([el, state.types.get(el) || new Set()]);
  }
  // Handlers a framework keeps on the element itself, its one real listener sitting at the root; and
  // SortableJS, which keeps itself on its list.
  const HANDLERS = /^on(click|mousedown|pointerdown|dblclick)/i;
  const frameworks = root => {
    const all = root.querySelectorAll('*');
    if (all.length > 30000) return;
    for (const el of all) {
      const keys = Object.keys(el);
      if (!keys.length) continue;
      const react = keys.find(k => k.startsWith('__reactProps$'));
      const props = react ? el[react] : null;
      const vue = el._vei;
      if ((props && (props.onClick || props.onMouseDown || props.onPointerDown || props.onDoubleClick))
        || (vue && Object.keys(vue).some(k => HANDLERS.test(k)))) listened.push([el, new Set(['click'])]);
      if (keys.some(k => k.startsWith('Sortable'))) Array.from(el.children).forEach(item => add(item, 'draggable'));
    }
  };
  roots.forEach(frameworks);
  const deep = sel => roots.flatMap(r => Array.from(r.querySelectorAll(sel)));
  deep('[onclick], [onmousedown], [onpointerdown]').forEach(el => listened.push([el, new Set(['click'])]));
  const jq = window.jQuery && window.jQuery._data;
  // What a delegating listener's own source says it acts on: `closest('.reply, .forward')`,
  // `matches('li')`, `classList.contains('swatch')`, `tagName === 'BUTTON'` (string literals outlive
  // minifying). The selectors are tried inside the element the listener is on.
  const SAID = [/\.(?:closest|matches)\(\s*(['"`])([^'"`]{1,200})\1\s*\)/g,
    /classList\.contains\(\s*(['"`])([\w-]{1,60})\1\s*\)/g, /tagName\s*[!=]==?\s*(['"`])([A-Za-z]{1,20})\1/g];
  const delegated = el => {
    const sources = (state.handlers && state.handlers.get(el)) || [];
    const selectors = new Set();
    for (const fn of sources) {
      const text = String(fn).slice(0, 5000);
      for (const [i, pattern] of SAID.entries()) {
        for (const m of text.matchAll(pattern)) selectors.add(i === 1 ? '.' + m[2] : m[2].toLowerCase());
      }
    }
    const found = [];
    for (const selector of selectors) {
      try { el.querySelectorAll(selector).forEach(item => found.push(item)); } catch (e) { /* not CSS */ }
    }
    // `closest('.msg')` also climbs from a target to its row: a match that holds another, or holds a
    // control (a table's row around its Delete button), is not one
    return found.filter(item => !found.some(other => other !== item && item.contains(other))
      && (item.matches(CONTROL) || !item.querySelector(CONTROL)));
  };
  // A delegating element's children of the most common tag, when they are most of them: a list's
  // items. Rows that hold buttons are left out: the listener is there for the buttons, controls already.
  // With `alike`, they must also look alike (no class, or a class in common with another): the parts
  // of one widget (Node-RED's palette node: its icon, label and port) are no list.
  const repeated = (el, alike = false) => {
    const kids = Array.from(el.children);
    const tags = new Map();
    kids.forEach(k => tags.set(k.tagName, (tags.get(k.tagName) || 0) + 1));
    const most = Math.max(0, ...tags.values());
    if (kids.length < 2 || most < 2 || most * 2 < kids.length) return null;
    const tag = [...tags].find(([, n]) => n === most)[0];
    const items = kids.filter(k => k.tagName === tag && !k.matches(CONTROL) && !k.querySelector(CONTROL));
    const classes = items.map(k => new Set(k.classList));
    const kin = (k, i) => !k.classList.length || classes.some((c, j) => j !== i && [...k.classList].some(x => c.has(x)));
    return !alike || items.every(kin) ? items : null;
  };
  for (const [el, types] of listened) {
    if (candidates.size >= limit * 4) break;
    const pointerish = [...types].some(t => t !== 'keydown');
    if (!pointerish && !(el.tabIndex >= 0)) continue;  // a key listener alone: only on what takes focus
    const events = jq ? window.jQuery._data(el, 'events') : null;
    const selectors = events ? Object.values(events).flat().map(h => h.selector).filter(Boolean) : [];
    if (selectors.length) {
      for (const s of new Set(selectors)) {
        try { el.querySelectorAll(s).forEach(item => add(item, 'acts')); } catch (e) { /* not CSS */ }
      }
      continue;
    }
    // What the source names is acted on even while it waits for a hover to show (opacity 0); the
    // listener's other repeated children, which hold none of it, are its other targets
    // (flatpickr's month bar: `classList.contains('arrowUp')` in the source, Prev and Next beside).
    const named = delegated(el);
    if (named.length) {
      named.forEach(item => { add(item, 'acts'); add(item, 'said'); });
      (repeated(el) || []).filter(k => !named.some(n => k.contains(n))).forEach(k => add(k, 'acts'));
      continue;
    }
    if (BROAD.has(el.tagName)) continue;
    const items = el.querySelectorAll(ITEMS);
    if (items.length) { items.forEach(item => add(item, 'acts')); continue; }
    if (el instanceof SVGElement) {  // a drawing's listener: its shapes are what a person clicks
      const box = el.getBoundingClientRect();
      const shapes = Array.from(el.querySelectorAll(Object.keys(SHAPES).join(', ')));
      // an icon (small, or drawn in one colour) is one control, not its strokes
      const colours = new Set(shapes.map(item => colour_name(getComputedStyle(item).fill)).filter(Boolean));
      if (shapes.length > 1 && colours.size > 1 && (box.width > 48 || box.height > 48)) {
        shapes.forEach(item => add(item, 'acts'));
        continue;
      }
      if (el.tagName.toLowerCase() !== 'svg') continue;
    }
    const kids = repeated(el, true);
    if (kids) { kids.forEach(k => add(k, 'acts')); continue; }
    if (!el.querySelector(CONTROL) && small(el)) add(el, 'acts');
  }
  deep('[tabindex]').forEach(el => { if (el.tabIndex >= 0 && !REGIONS.has(el.tagName) && small(el)) add(el, 'focusable'); });
  deep('[draggable=true], [data-rbd-draggable-id], [data-sortable-id], .ui-draggable, .ui-sortable-handle')
    .forEach(el => add(el, 'draggable'));
  deep('.ui-sortable').forEach(list => Array.from(list.children).forEach(el => add(el, 'draggable')));
  // (a date field's segments, React Aria's editable spinbuttons, have their refs by their role)
  deep('[contenteditable]:not([contenteditable=false]):not([role=spinbutton], [role=slider], [role=combobox])').forEach(el => {
    if (!up(el) || !up(el).closest('[contenteditable]:not([contenteditable=false])')) add(el, 'editable');
  });
  // A drawing: nothing inside has a ref; its line says its size and what reaches in.
  // A grid drawn on a canvas (Glide Data Grid's, Streamlit's dataframes) keeps a table inside it for
  // screen readers: `tables` reads it.
  deep('canvas').forEach(el => { add(el, 'canvas'); if (el.querySelector('table, [role=grid]')) add(el, 'table'); });
  // A control with nothing to name it but its icon: named by its title (an icon font's glyphs drawn by
  // ::before are its name to the browser, and say nothing), else its class or id words, or its image's file.
  deep('button, [role=button], a[href]').forEach(el => {
    if (!el.textContent.trim() && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby')
      && !el.querySelector('img[alt]:not([alt=""]), svg title')) add(el, 'unnamed');
  });
  // Words that say how a control looks or is built, or where it sits, never what it does.
  const STYLE_WORD = /^(background|header|footer|toolbar|sidebar|panel|panels|view|bar|item|control|controls|label|ql|btn|button|icon|icons|image|images|glyph|symbol|fa|fas|far|fab|mdi|bi|glyphicon|ui|js|is|has|svg|img|el|mat|material|lucide|ti|ri|ph|octicon|active|selected|disabled|blank|empty|focus|cm|content|contents|inner|wrapper|wrap|container|root|area|scroller|layer|focused|hover|open|closed|hidden|visible|invisible|transparent|plain|flat|ghost|outline|outlined|padded|rounded|compact|dense|primary|secondary|tertiary|default|small|large|mini|tiny|borderless|sm|md|lg|xl|\d+)$/;
  // A build's scoping class (Svelte's `svelte-1hguek3`, Emotion's `css-1x2y3z`, `st-emotion-cache-…`), a
  // hash of letters and digits (`16sct4k`, a CSS module's `__3xYz1`) and a long number say nothing a person sees.
  const GENERATED = /^(svelte|css|sc|jsx|emotion|st-emotion-cache)-[a-z0-9]+$/i;
  const hashy = w => /\d{4,}/.test(w)
    || (w.length >= 5 && /\d/.test(w) && /[a-z]/i.test(w) && w.match(/\d+|[a-z]+/gi).length >= 3);
  const classes = el => (typeof (el && el.className) === 'string' ? el.className.split(/\s+/)
    : el && el.className && typeof el.className.baseVal === 'string' ? el.className.baseVal.split(/\s+/) : [])
    .filter(c => c && !GENERATED.test(c));
  // a library's prefix (`flatpickr-prev-month` inside `flatpickr-months`, `tc-remove-tag-button` inside
  // `tc-tag-list-item`): the first part of a class that also begins a class of the element around it
  const prefixes = el => new Set(classes(el).filter(c => /[-_]/.test(c)).map(c => c.split(/[-_]/)[0].toLowerCase()));
  const classWords = (el, ...around) => {
    const lead = new Set(around.flatMap(a => [...prefixes(a)]));
    return classes(el).map(c => c.split(/[-_]/)).map(parts => lead.has(parts[0].toLowerCase()) && parts.length > 1 ? parts.slice(1) : parts)
      .flat().join(' ');
  };
  // The page's own class prefix (`red` of Node-RED's red-ui-…, `tc` of TiddlyWiki's tc-…): the first
  // part that begins a third or more of the page's hyphenated classes names nothing, in a class or an id.
  const library = () => {
    if (!state.library) {
      const counts = new Map();
      let total = 0;
      for (const el of Array.from(document.querySelectorAll('[class]')).slice(0, 3000)) {
        for (const c of classes(el)) {
          const parts = c.split(/[-_]/);
          if (parts.length < 2 || !parts[0]) continue;
          total++;
          counts.set(parts[0].toLowerCase(), (counts.get(parts[0].toLowerCase()) || 0) + 1);
        }
      }
      state.library = new Set([...counts].filter(([, n]) => n >= 20 && n * 3 >= total).map(([p]) => p));
    }
    return state.library;
  };
  // Icon fonts name some glyphs by their look: what a person reads in them.
  const ICON_MEANS = {times: 'close', xmark: 'close', bars: 'menu', hamburger: 'menu', ellipsis: 'more', kebab: 'more'};
  const words = el => {
    const drawing = !!el.ownerSVGElement;  // a shape is no HTML button: its class's "button" says what it is
    const image = el.querySelector('img[src]');
    const use = el.querySelector('use');
    const icon = el.querySelector('svg, i[class], span[class*=icon]');  // an icon font's or a sprite's name
    const kept = source => source.split(/[\s#]+/).flatMap(w => w.split(/[-_]/)).filter(w => !hashy(w))
      .flatMap(w => w.split(/(?=[A-Z][a-z])/))
      .map(w => w.toLowerCase())
      .filter(w => w.length > 1 && (!STYLE_WORD.test(w) || (drawing && w === 'button')) && !library().has(w));
    // its own id and classes first; only when they say nothing, the icon inside it
    const id = kept(el.id);  // an id is meant to say which one; the classes, what kind
    const own = id.length ? id : kept(classWords(el, el.parentElement));
    const drawn = own.length ? [] : kept([
      use ? (use.getAttribute('href') || use.getAttribute('xlink:href') || '') : '',
      icon ? `${icon.getAttribute('data-icon') || ''} ${classWords(icon, el, el.parentElement)}` : '',
      image ? (image.getAttribute('src').split('/').pop().split('.')[0]) : ''].join(' '));
    return [...new Set((own.length ? own : drawn).map(w => ICON_MEANS[w] || w))].slice(0, 4).join(' ');
  };
  const shape = el => SHAPES[el.tagName.toLowerCase()] && el.ownerSVGElement;
  const name = (el, flags, role) => {
    if (role === 'canvas') {
      const r = el.getBoundingClientRect();
      const label = flat(el.getAttribute('aria-label') || el.title);
      const table = flags.has('table') ? el.querySelector('table, [role=grid]') : null;
      const rows = table ? Number(table.getAttribute('aria-rowcount')) - 1 || table.querySelectorAll('tbody tr').length : 0;
      const heads = table ? Array.from(table.querySelectorAll('th, [role=columnheader]')).map(h => flat(h.textContent))
        .filter(Boolean).slice(0, 6).join(', ') : '';
      const drawn = table ? `table of ${rows} row${rows === 1 ? '' : 's'}${heads ? ` (${heads})` : ''}, ` : '';
      return `${label ? label + ', ' : ''}${drawn}${Math.round(r.width)}×${Math.round(r.height)}`;
    }
    if (role === 'slider handle') return flat(el.getAttribute('aria-label') || el.title);
    if (flags.has('editable'))  // its text is its value; an editor's placeholder names it, else its class
      return flat(el.getAttribute('aria-label') || el.title || el.getAttribute('data-placeholder')
        || el.getAttribute('placeholder') || words(el)).slice(0, 80);
    const said = flat(el.getAttribute('aria-label') || el.getAttribute('title')
      || (el.tagName === 'IMG' ? el.getAttribute('alt') : ''));
    if (said) return said.slice(0, 80);
    // what it shows (a hidden submenu's words are not its name); an SVG shape has no innerText
    const text = flat(el.innerText !== undefined ? el.innerText : shape(el) ? '' : el.textContent);
    if (text && !flags.has('unnamed')) return text.slice(0, 80);
    if (shape(el)) {
      const fill = getComputedStyle(el).fill;
      const label = flat(el.parentElement && el.parentElement.tagName === 'g' ? el.parentElement.textContent : '');
      const classed = words(el);  // what the drawing calls it (Node-RED's `red-ui-flow-port`: "flow port")
      return (classed ? [classed, colour_name(fill), label] : [colour_name(fill), SHAPES[el.tagName.toLowerCase()], label])
        .filter(Boolean).join(' ').slice(0, 80);
    }
    const r = el.getBoundingClientRect();
    const background = getComputedStyle(el).backgroundColor;
    const classed = words(el);
    const swatch = !classed || /swatch|colou?r|palette|chip/.test(classed);
    if (swatch && r.width <= 48 && r.height <= 48 && colour_name(background) && !el.children.length)
      return colour_name(background) + ' swatch';
    return classed;
  };
  const role = (el, flags) => {
    if (flags.has('canvas')) return 'canvas';
    if (flags.has('editable')) return 'textbox';
    if (shape(el)) return SHAPES[el.tagName.toLowerCase()];
    if (slider_handle(el) !== null) return 'slider handle';
    if (flags.has('draggable')) return 'draggable';
    return el.tagName === 'A' ? 'link' : 'clickable';
  };
  // A menu that opens on hover (`li:hover > ul`): the item that holds a hidden list of controls is one.
  for (const el of [...candidates.keys()]) {
    for (let list = el.parentElement && el.parentElement.closest('ul, ol, [role=menu]'), i = 0; list && i < 4;
      list = list.parentElement && list.parentElement.closest('ul, ol, [role=menu]'), i++) {
      const holder = list.parentElement;
      if (!holder || holder.tagName !== 'LI' || getComputedStyle(list).display !== 'none') continue;
      if (Array.from(holder.children).some(c => c !== list && c.matches(CONTROL))) continue;  // its link opens it
      add(holder, 'acts');
    }
  }
  // A wrapper and the control inside it that says the same words are one control: the inner one.
  const words_of = el => flat(el.textContent);
  const inner = new Map();
  for (const el of candidates.keys()) {
    for (let a = up(el), i = 0; a && i < 4; a = up(a), i++) if (candidates.has(a)) inner.set(a, (inner.get(a) || []).concat(el));
  }
  const wrapper = el => (inner.get(el) || []).some(c => words_of(c) && words_of(c) === flat(el.innerText));
  const out = [];
  for (const [el, flags] of candidates) {
    if (out.length >= limit) break;
    if (inner.has(el) && wrapper(el)) continue;
    if ([...el.children].some(c => slider_handle(c) !== null)) continue;  // a track: its handle sets it
    const unnamed = flags.has('unnamed');
    if (!unnamed && !flags.has('editable') && (el.matches(CONTROL) || (up(el) && up(el).closest(CONTROL)))) {
      if (!flags.has('draggable')) continue;
    }
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    // a mark hidden from screen readers inside a control that listens (a date field's "/" between its parts)
    if (!el.children.length && el.closest('[aria-hidden=true]') && !/[\p{L}\p{N}]/u.test(el.textContent)) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || (Number(s.opacity) === 0 && !flags.has('said'))) continue;
    let id = state.ids.get(el);
    if (!id) { id = state.next++; state.ids.set(el, id); }
    state.found[id] = new WeakRef(el);
    const shown = role(el, flags);
    out.push([id, [r.x, r.y, r.width, r.height].map(Math.round), shown, name(el, flags, shown),
      [...flags].join(' '), flags.has('editable') ? flat(el.innerText).slice(0, 300)
        : shown === 'slider handle' ? `${slider_handle(el)}%` : null]);
  }
  return out;
}
