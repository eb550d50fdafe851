// How the element of a snapshot node stands to a target: 2 it is the target, 1 it holds it
// (in the flat tree), 0 neither.
(e, t) => {
  if (e === t) return 2;
  for (let n = t; n; n = n.assignedSlot || n.parentElement || (n.getRootNode() || {}).host || null)
    if (n === e) return 1;
  return 0;
}
