e => {
  e.focus();
  try { if (typeof e.value === 'string') e.setSelectionRange(e.value.length, e.value.length); } catch (_) {}
}
