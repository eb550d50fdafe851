// What a dropdown shows once chosen: a field's value, else its text (first line, trimmed), without
// the label a component draws inside it (Material's select reads "Country    Netherlands").
(el) => {
  const field = el.matches('input,textarea') ? el : el.querySelector('input,textarea');
  const squeeze = t => (t || '').replace(/\s+/g, ' ').trim();
  if (field) return squeeze(field.value).slice(0, 200);
  const lines = (el.innerText || el.textContent || '').split('\n').map(squeeze).filter(Boolean);
  const labelled = (el.getAttribute('aria-labelledby') || '').split(/\s+/)
    .map(id => id && document.getElementById(id)).filter(l => l && !l.contains(el) && el.contains(l));
  const inner = el.querySelector('label, [class*="label" i]:not([class*="value" i])');
  const labels = [...labelled, inner].filter(Boolean).map(l => squeeze(l.textContent))
    .concat([squeeze(el.getAttribute('aria-label'))]).filter(Boolean);
  let shown = lines.join(' ');
  for (const label of labels) {
    if (shown.startsWith(label) && shown.length > label.length) { shown = shown.slice(label.length).trim(); break; }
  }
  return shown.slice(0, 200);
}
