// Whether `e` is `t` or inside it in the flat tree: through slots and shadow roots.
(e, t) => {
  for (let n = e; n; n = n.assignedSlot || n.parentElement || (n.getRootNode() || {}).host || null)
    if (n === t) return true;
  return false;
}
