// `selecttext`: select an element's text (a field's value, or the visible text under it, across its
// text nodes), or the part from the first FROM to the first TO after it. Called as
// (element, [from, to, step]):
//   "plan"   where the part lies: {found, text, field, drag: [x1, y1, x2, y2] | null, origin: [x, y]};
//            drag is where a person's mouse would press and let go, when that is safe (both ends in
//            view and uncovered, nothing there a click would set off); origin is the element's corner
//            in its frame, to place the points on the page. Not found: {found: false, missing, sample}.
//   "check"  what is selected now: {selected, exact} (exact: it is the planned part)
//   "apply"  the part selected by the page's own selection API, then as "check".
// Text is matched with its white space folded; then without white space (cells read "a b", the DOM
// has "ab"); then without regard to case.
(element, [from, to, step]) => {
  const isField = e => e instanceof HTMLTextAreaElement
    || (e instanceof HTMLInputElement && /^(text|search|url|tel|email|password|number|)$/.test(e.type));
  const fold = s => s.replace(/\s+/g, ' ').trim();
  const SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/;

  // Each character kept, with where it came from: [char, node, offset].
  const fieldChars = e => Array.from(e.value, (ch, i) => [ch, null, i]);
  const textChars = e => {
    const out = [];
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || SKIP.test(parent.tagName)) continue;
      if (parent.checkVisibility && !parent.checkVisibility({ visibilityProperty: true })) continue;
      for (let i = 0; i < node.data.length; i++) out.push([node.data[i], node, i]);
    }
    return out;
  };

  // The characters a matching pass compares, and the index in `chars` of each.
  const pass = (chars, mode) => {
    let text = '';
    const at = [];
    for (let i = 0; i < chars.length; i++) {
      const space = /\s/.test(chars[i][0]);
      if (space && (mode !== 'folded' || text === '' || text.endsWith(' '))) continue;
      text += space ? ' ' : (mode === 'caseless' ? chars[i][0].toLowerCase() : chars[i][0]);
      at.push(i);
    }
    return { text, at };
  };
  const wanted = (s, mode) => {
    const folded = fold(s || '');
    if (mode === 'folded') return folded;
    const bare = folded.replace(/\s/g, '');
    return mode === 'caseless' ? bare.toLowerCase() : bare;
  };

  // [first, last] indexes into `chars` of the part asked for, or {missing}.
  const locate = chars => {
    let missing = 'from';
    for (const mode of ['folded', 'bare', 'caseless']) {
      const { text, at } = pass(chars, mode);
      if (!text) return { missing: 'text' };
      const head = from ? text.indexOf(wanted(from, mode)) : 0;
      if (head < 0 || (from && !wanted(from, mode))) continue;
      let tail = text.length;
      if (to) {
        const mark = wanted(to, mode);
        const found = mark ? text.indexOf(mark, head + (from ? wanted(from, mode).length : 0)) : -1;
        const loose = found < 0 && mark ? text.indexOf(mark, head) : found;
        if (loose < 0) { missing = 'to'; continue; }
        tail = loose + mark.length;
      }
      let first = head;
      while (first < tail && text[first] === ' ') first++;
      let last = tail - 1;
      while (last > first && text[last] === ' ') last--;
      return { first: at[first], last: at[last] };
    }
    return { missing };
  };

  const rangeOf = (chars, first, last) => {
    const range = document.createRange();
    range.setStart(chars[first][1], chars[first][2]);
    range.setEnd(chars[last][1], chars[last][2] + 1);
    return range;
  };
  const charBox = ch => {
    const r = document.createRange();
    r.setStart(ch[1], ch[2]);
    r.setEnd(ch[1], ch[2] + 1);
    return Array.from(r.getClientRects()).find(b => b.width > 0 && b.height > 0);
  };
  // A click there sets something off: a drag that starts or ends on it is not a plain selection.
  const ACTS = 'a[href],button,label,summary,select,input,textarea,[draggable="true"],[onclick],'
    + '[role=button],[role=link],[role=option],[role=menuitem],[role=tab],[role=checkbox],[role=switch]';
  const quiet = node => {
    const e = node.nodeType === 1 ? node : node.parentElement;
    return !!e && !e.closest(ACTS) && getComputedStyle(e).userSelect !== 'none';
  };
  const inView = (x, y) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
  const under = (x, y, node) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === node.parentElement || hit.contains(node) || element.contains(hit));
  };
  const dragPoints = (chars, first, last, range) => {
    const a = charBox(chars[first]);
    const b = charBox(chars[last]);
    if (!a || !b || !quiet(range.commonAncestorContainer) || !quiet(chars[first][1]) || !quiet(chars[last][1])) {
      return null;
    }
    const x1 = a.left + Math.min(2, a.width / 4);
    const y1 = a.top + a.height / 2;
    const x2 = b.right - Math.min(2, b.width / 4);
    const y2 = b.top + b.height / 2;
    const ok = inView(x1, y1) && inView(x2, y2) && under(x1, y1, chars[first][1]) && under(x2, y2, chars[last][1]);
    return ok ? [x1, y1, x2, y2] : null;
  };

  const field = isField(element);
  const chars = field ? fieldChars(element) : textChars(element);
  const spot = locate(chars);
  if (spot.missing) {
    const sample = fold(field ? element.value : chars.map(c => c[0]).join('')).slice(0, 120);
    return { found: false, missing: spot.missing, sample };
  }
  const { first, last } = spot;
  const text = chars.slice(first, last + 1).map(c => c[0]).join('');
  const selectedNow = () => {
    if (!field) return String(getSelection());
    const start = element.selectionStart;
    return start === null ? element.value : element.value.slice(start, element.selectionEnd);
  };
  const check = () => {
    const selected = selectedNow();
    return { found: true, selected, exact: fold(selected) === fold(text) };
  };
  if (step === 'check') return check();
  if (step === 'apply') {
    if (field) {
      element.focus();
      try { element.setSelectionRange(first, last + 1); } catch (_) { element.select(); }  // email, number
    } else {
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(rangeOf(chars, first, last));
    }
    return check();
  }
  const box = element.getBoundingClientRect();
  const drag = field ? null : dragPoints(chars, first, last, rangeOf(chars, first, last));
  return { found: true, text, field, drag, origin: [box.left, box.top] };
}
