() => {
  const FIELDS = 'input:not([type=hidden]), select, textarea, button';
  const labelOf = el => {
    if (el.labels && el.labels.length) return el.labels[0].innerText;
    return el.getAttribute('aria-label') || el.title || '';
  };
  const describe = el => {
    const tag = el.tagName.toLowerCase();
    const type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase()
      : tag === 'button' ? (el.getAttribute('type') || 'submit').toLowerCase() : '';
    const field = {tag, type, name: el.name || '', id: el.id || '',
      label: labelOf(el).replace(/\s+/g, ' ').trim(),
      placeholder: el.getAttribute('placeholder') || '', required: !!el.required,
      disabled: !!el.disabled, value: '', checked: null, options: []};
    if (tag === 'select') {
      field.options = Array.from(el.options).map(o => [o.value, o.label, o.selected]);
    } else if (type === 'checkbox' || type === 'radio') {
      field.checked = el.checked; field.value = el.value;
    } else if (tag === 'button') {
      field.value = el.innerText.trim();
    } else {
      field.value = type === 'password' ? (el.value ? '(redacted)' : '') : el.value;
    }
    return field;
  };
  const forms = Array.from(document.forms).map(f => ({
    name: f.getAttribute('name') || f.id || '', action: f.action,
    method: (f.getAttribute('method') || 'get').toUpperCase(),
    fields: Array.from(f.querySelectorAll(FIELDS)).map(describe)}));
  const loose = Array.from(document.querySelectorAll(FIELDS)).filter(el => !el.form && !el.closest('form'));
  if (loose.length) {
    forms.push({name: '(fields outside any form)', action: '', method: '', fields: loose.map(describe)});
  }
  return forms;
}
