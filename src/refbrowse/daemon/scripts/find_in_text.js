([source, isRegex, limit]) => {
  const pattern = new RegExp(isRegex ? source : source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  const HOLDERS = 'a[href], button, input, select, textarea, summary, label, [role=button], [role=link], '
    + '[role=tab], [role=menuitem], [role=option], h1, h2, h3, h4, h5, h6, [role=heading]';
  const hits = [];
  let total = 0;
  const root = document.body || document.documentElement;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue || '';
    const match = pattern.exec(text);
    if (!match || !node.parentElement || node.parentElement.closest('script, style, noscript')) continue;
    total++;
    if (hits.length >= limit) continue;
    const holder = node.parentElement.closest(HOLDERS);
    const start = Math.max(0, match.index - 60);
    const end = Math.min(text.length, match.index + match[0].length + 60);
    const heading = !!holder && holder.matches('h1, h2, h3, h4, h5, h6, [role=heading]');
    const name = holder ? (holder.getAttribute('aria-label') || holder.innerText || holder.value || '') : '';
    hits.push({el: heading ? null : holder, heading, role: holder ? (holder.getAttribute('role')
      || (heading ? 'heading' : holder.tagName.toLowerCase())) : '',
      name: name.replace(/\s+/g, ' ').trim().slice(0, 50),
      excerpt: (start ? '…' : '') + text.slice(start, end).replace(/\s+/g, ' ').trim()
        + (end < text.length ? '…' : '')});
  }
  return {hits, total};
}
