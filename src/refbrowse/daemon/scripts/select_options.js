(el, wanted) => {
  if (el.tagName !== 'SELECT') return null;
  const options = Array.from(el.options);
  return wanted.map(w => {
    const hit = options.find(o => o.value === w) || options.find(o => o.label.trim() === w.trim())
      || options.find(o => o.text.trim().toLowerCase() === w.trim().toLowerCase());
    return hit ? hit.value : null;
  }).concat([options.map(o => o.label.trim()).join(', ')]);
}
