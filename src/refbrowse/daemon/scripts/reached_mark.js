// Marks the element the reach scan gave id `id` (see reach.js) with `mark` under attribute `name`, so that a
// locator reaches it; false when the element is gone.
([id, name, mark]) => {
  const state = window[Symbol.for('refbrowse.reach')];
  const found = state && state.found[id] && state.found[id].deref();
  if (!found || !found.isConnected) return false;
  found.setAttribute(name, mark);
  return true;
}
