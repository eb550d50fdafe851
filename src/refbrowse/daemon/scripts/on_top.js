// Whether a person sees the element and would click it: at least 4 px a side, and on top at its middle
// once scrolled into view. A library's copies for assistive technology (role=option in a 0×0 box, or
// clipped to a pixel) are not: the option a person clicks is drawn elsewhere.
(e) => {
  let r = e.getBoundingClientRect();
  if (r.width < 4 || r.height < 4) return false;
  if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) {
    e.scrollIntoView({ block: 'nearest' });
    r = e.getBoundingClientRect();
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === e || e.contains(hit));
}
