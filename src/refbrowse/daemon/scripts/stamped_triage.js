// uses: triage
(key) => {
  // The probe's stamp is read before the facts, in the same script: no mutation can fall between.
  const stamp = window[key] ? window[key].stamp() : null;
  // A document with nothing in it (about:blank, an empty page): its ai snapshot is empty, and
  // Playwright need not set up its script in the document to say so. Text drawn by CSS counts.
  const root = document.documentElement, body = document.body;
  const drawn = el => ['::before', '::after'].some(p => getComputedStyle(el, p).content !== 'none');
  const blank = !!root && !!body && !body.firstChild && !drawn(body) && !drawn(root)
    && Array.from(root.childNodes).every(n => n === document.head || n === body || n.nodeType === Node.COMMENT_NODE
      || (n.nodeType === Node.TEXT_NODE && !n.data.trim()));
  return {stamp, facts: triage(), blank};
}
