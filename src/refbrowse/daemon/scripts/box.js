el => {
  const r = el.getBoundingClientRect();
  return [r.x + scrollX, r.y + scrollY, r.width, r.height];
}
