// What a field or box holds after `fill` or `check`: [kind, value], never a password's value.
e => {
  if (e.type === 'password') return ['password', String(e.value.length)];
  if (e.tagName === 'SELECT') return ['choice', [...e.selectedOptions].map(o => o.label.trim()).join('\n')];
  if (e.type === 'checkbox' || e.type === 'radio') return ['checked', String(e.checked)];
  const aria = e.getAttribute('aria-checked');
  if (aria !== null) return ['checked', aria];
  return ['value', 'value' in e ? String(e.value) : (e.textContent || '')];
}
