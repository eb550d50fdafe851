// What a dropdown shows once chosen: a field's value, else its text (first line, trimmed).
(el) => {
  const field = el.matches('input,textarea') ? el : el.querySelector('input,textarea');
  const shown = field ? field.value : el.textContent || '';
  return shown.trim().split('\n')[0].slice(0, 200);
}
