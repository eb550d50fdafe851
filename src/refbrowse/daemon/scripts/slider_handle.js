// Where a slider's handle drawn without ARIA stands (jQuery UI's, noUiSlider's): its share of the track it
// sits on, 0 to 100 in whole steps, from the left (from the bottom on an upright track); null for any other element. The
// page says no value for such a handle, so its place on the track is what a person reads off it.
(el) => {
  const cls = typeof el.className === 'string' ? el.className : '';
  if (!/slider-handle|noUi-handle|range-handle|\bthumb\b/i.test(cls) || el.getAttribute('aria-valuenow') !== null
    || !el.parentElement) return null;
  const parent = el.parentElement;
  const box = parent.getBoundingClientRect();
  const handle = el.getBoundingClientRect();
  // the track's inside, its border left out: `left: 20%` is measured from there
  const [x, y, width, height] = [box.x + parent.clientLeft, box.y + parent.clientTop, parent.clientWidth,
    parent.clientHeight];
  if (!width || !height) return null;
  const share = width >= height
    ? (handle.x + handle.width / 2 - x) / width
    : (y + height - handle.y - handle.height / 2) / height;
  return Math.round(Math.max(0, Math.min(1, share)) * 100);  // a pixel's border is no value
}
