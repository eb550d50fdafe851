(top) => {
  const hosts = [];
  const find = root => {
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) { hosts.push(e); find(e.shadowRoot); }
  };
  find(top.shadowRoot || top);
  if (top.shadowRoot) hosts.push(top);
  // Slots show light-DOM children where the shadow root puts them: walk down to each one.
  for (const h of hosts.slice()) hosts.push(...h.shadowRoot.querySelectorAll('slot'));
  // Hidden from everyone: hidden from assistive technology and drawn in at most one pixel (a copy a
  // component keeps for measuring). innerText would say it twice, so the walk goes around it.
  const tiny = e => { const r = e.getBoundingClientRect(); return r.width <= 1 && r.height <= 1; };
  const unseen = new Set([top.shadowRoot || top, ...hosts.map(h => h.shadowRoot).filter(Boolean)]
    .flatMap(root => Array.from(root.querySelectorAll('[aria-hidden=true]')))
    .filter(e => e.textContent.trim() && tiny(e)));
  if (!hosts.length && !unseen.size) return top.innerText ?? top.textContent ?? '';
  const up = n => n.assignedSlot || n.parentNode || n.host || null;
  const onPath = new Set();
  for (const h of [...hosts, ...Array.from(unseen, u => up(u))])
    for (let n = h; n && !onPath.has(n); n = up(n)) onPath.add(n);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
  const out = [];
  const walk = n => {
    if (n.nodeType === 3) { out.push(n.data.replace(/\s+/g, ' ')); return; }
    if (n.nodeType !== 1 && n.nodeType !== 11) return;
    if (n.nodeType === 1) {
      if (SKIP.has(n.tagName) || unseen.has(n)) return;
      const display = getComputedStyle(n).display;  // slots are display: contents, never "visible"
      if (display !== 'contents' && n.checkVisibility && !n.checkVisibility()) return;
      const block = display !== 'contents' && !display.startsWith('inline');
      // An SVG or MathML element has no innerText: an icon in a shadow root says its textContent
      const own = n.innerText ?? n.textContent ?? '';
      if (!onPath.has(n)) { out.push(block ? '\n' + own + '\n' : own); return; }
      if (block) out.push('\n');
    }
    const kids = n.shadowRoot ? n.shadowRoot.childNodes
      : n.tagName === 'SLOT' ? (n.assignedNodes({flatten: true}).length ? n.assignedNodes({flatten: true})
      : n.childNodes) : n.childNodes;
    for (const k of kids) walk(k);
  };
  walk(top);
  return out.join('');
}
