// uses: dom
text => {
  const el = dom.activeElement();
  if (el && (el.tagName === 'IFRAME' || el.tagName === 'FRAME')) return true;
  // Focus inside a closed shadow root stays on its host, which is no field: that counts as a yes.
  const field = el && (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable);
  if (el && el !== document.body && !field && !el.shadowRoot) return true;
  if (el && el.tagName === 'INPUT' && el.type === 'password') return true;
  return Array.from(document.querySelectorAll('input[type=password]')).some(p => p.value.includes(text));
}
