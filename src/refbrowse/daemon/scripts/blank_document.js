// Whether the document has nothing in it (about:blank, an empty page): its ai snapshot is empty, and
// Playwright need not set up its script in the document to say so. Text drawn by CSS counts.
() => {
  const root = document.documentElement, body = document.body;
  const drawn = el => ['::before', '::after'].some(p => getComputedStyle(el, p).content !== 'none');
  const bare = n => n === document.head || n === body || n.nodeType === Node.COMMENT_NODE
    || (n.nodeType === Node.TEXT_NODE && !n.data.trim());
  return !!root && !!body && !body.firstChild && !drawn(body) && !drawn(root)
    && Array.from(root.childNodes).every(bare);
}
