// A slider's value and range as numbers ({now, min, max}; null where the page gives none): a native
// <input type=range> from its value, a slider drawn by a component library from its aria-value*.
// A label, or an element inside one, stands for the control it labels.
(e) => {
  if (e.tagName !== 'INPUT' && !e.getAttribute('role')) {
    const label = e.closest('label');
    if (label && label.control) e = label.control;
  }
  const number = (v) => (v === null || v === undefined || v === '' || isNaN(Number(v)) ? null : Number(v));
  if (e.tagName === 'INPUT') {
    return { now: number(e.value), min: number(e.min) ?? 0, max: number(e.max) ?? 100 };
  }
  return {
    now: number(e.getAttribute('aria-valuenow')),
    min: number(e.getAttribute('aria-valuemin')),
    max: number(e.getAttribute('aria-valuemax')),
  };
}
