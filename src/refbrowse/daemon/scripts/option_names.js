// The names of the options a dropdown shows, as a person reads them (for an error that lists them):
// the label if it has one, else its text without what is hidden from assistive technology (a check mark).
(els) => {
  const text = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || node.getAttribute('aria-hidden') === 'true') return '';
    return Array.from(node.childNodes, text).join('');
  };
  return els.map((e) => (e.getAttribute('aria-label') || text(e)).replace(/\s+/g, ' ').trim());
}
