// A slider's value, range and step as numbers ({now, min, max, step}; null where the page gives
// none, the step of a drawn slider always), and its value in words if it says one: a native
// <input type=range> from its value, a slider drawn by a component library from its aria-value*, a
// handle drawn without ARIA from its place on the track (0 to 100, `share`).
// A label, or an element inside one, stands for the control it labels.
// uses: slider_handle
(e) => {
  if (e.tagName !== 'INPUT' && !e.getAttribute('role')) {
    const label = e.closest('label');
    if (label && label.control) e = label.control;
  }
  const number = (v) => (v === null || v === undefined || v === '' || isNaN(Number(v)) ? null : Number(v));
  if (e.tagName === 'INPUT') {
    const step = e.step === 'any' ? null : number(e.step) ?? 1;
    return { now: number(e.value), min: number(e.min) ?? 0, max: number(e.max) ?? 100, step,
      words: e.getAttribute('aria-valuetext'), native: true };
  }
  const share = slider_handle(e);
  if (share !== null) return { now: share, min: 0, max: 100, step: null, words: null, native: false, share: true };
  return {
    now: number(e.getAttribute('aria-valuenow')),
    min: number(e.getAttribute('aria-valuemin')),
    max: number(e.getAttribute('aria-valuemax')),
    step: null,
    words: e.getAttribute('aria-valuetext'),
    native: false,
  };
}
