// uses: dom
(el, hitTest, aimKey) => {
  let r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return {state: 'empty'};
  const outside = r => {
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x < 0 || y < 0 || x > innerWidth || y > innerHeight;
  };
  if (outside(r)) {
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = el.getBoundingClientRect();
  }
  if (!hitTest) return {state: 'ok'};
  if (outside(r)) return {state: 'outside'};
  if (el.disabled || el.getAttribute('aria-disabled') === 'true') return {state: 'disabled'};
  // Ancestry in the composed (flat) tree: slots and shadow hosts count, so a slotted label
  // or the element's own host is never its cover.
  const up = n => n.assignedSlot || n.parentElement || (n.getRootNode() || {}).host || null;
  const within = (a, b) => { for (let n = b; n; n = up(n)) if (n === a) return true; return false; };
  const labels = el.labels ? Array.from(el.labels) : [];
  const look = r => {
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    // The innermost element at the point, through open shadow roots: what a real click would reach.
    const hit = dom.elementAt(x, y);
    // A shape under another part of its own drawing group (a node's button: a rect on a rect) is not
    // covered: a click there reaches the group, as the person's would.
    const group = el.ownerSVGElement && el.parentElement && el.parentElement.tagName.toLowerCase() === 'g'
      ? el.parentElement : null;
    const own = !hit || within(el, hit) || (within(hit, el) && getComputedStyle(hit).pointerEvents !== 'none')
      || (!!group && within(group, hit));
    return {x, y, hit, own, byLabel: !!hit && labels.some(l => within(l, hit))};
  };
  let {x, y, hit, own, byLabel} = look(r);
  if (!own && !byLabel) {
    // Covered where it is: it may be clipped by a box that scrolls (a modal's form below its fold)
    // or under a sticky bar. Centred in every scrolling box, as a person would scroll to it.
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = el.getBoundingClientRect();
    if (outside(r)) return {state: 'outside'};
    ({x, y, hit, own, byLabel} = look(r));
  }
  if (own || byLabel) {
    // Aimed: the element is kept (under a per-daemon name, for the click that follows) with the
    // point to click, in the top frame only, whose viewport the mouse speaks in.
    if (aimKey && window === window.top) {
      Object.defineProperty(window, aimKey, {value: new WeakRef(el), configurable: true});
    }
    return {state: 'ok', point: [x, y], byLabel};
  }
  const short = e => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    const cls = (typeof e.className === 'string' ? e.className : '').trim().split(/\s+/).filter(Boolean);
    if (cls.length) s += '.' + cls.slice(0, 2).join('.');
    return s;
  };
  let top = hit, path = [];
  for (let e = hit; e && e !== document.body && path.length < 3; e = up(e)) {
    path.unshift(short(e));
    top = e;
  }
  const role = hit.getAttribute('role') || top.getAttribute('role') || '';
  const label = (hit.getAttribute('aria-label') || top.getAttribute('aria-label')
    || (top.innerText || '').trim()).replace(/\s+/g, ' ').slice(0, 60);
  return {state: 'covered', path: path.join(' > '), role, label, point: [x, y]};
}
