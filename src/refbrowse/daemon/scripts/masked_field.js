// uses: dom
text => {
  const el = dom.activeElement();
  if (el && (el.tagName === 'IFRAME' || el.tagName === 'FRAME')) return true;
  if (el && el.tagName === 'INPUT' && el.type === 'password') return true;
  return Array.from(document.querySelectorAll('input[type=password]')).some(p => p.value.includes(text));
}
