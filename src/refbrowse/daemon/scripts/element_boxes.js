// The boxes of an element and of its ancestors in the flat tree (through slots and shadow roots),
// nearest first, rounded as the snapshot's [box=x,y,w,h] is: where to look for its ref.
(t) => {
  const out = [];
  for (let n = t; n && out.length < 40; n = n.assignedSlot || n.parentElement || (n.getRootNode() || {}).host || null) {
    const r = n.getBoundingClientRect();
    out.push([r.x, r.y, r.width, r.height].map(Math.round));
  }
  return out;
}
