// [tag, text, box] of each element; the tag says `draggable` for one made to be dragged, and the text
// leaves out icon-font glyphs (private-use code points).
els => els.map(e => {
  const r = e.getBoundingClientRect();
  const text = (e.getAttribute('aria-label') || e.innerText || e.getAttribute('title')
    || e.getAttribute('alt') || '')
    .replace(/[\ue000-\uf8ff]/g, '').replace(/\s+/g, ' ').trim().slice(0, 80);
  const cursor = getComputedStyle(e).cursor;
  const dragged = e.getAttribute('draggable') === 'true' || cursor === 'move' || cursor === 'grab';
  return [e.tagName.toLowerCase() + (dragged ? ' draggable' : ''), text,
    [r.left, r.top, r.width, r.height].map(Math.round)];
})
