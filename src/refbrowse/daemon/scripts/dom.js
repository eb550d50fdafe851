// The DOM as a person meets it, through open shadow roots: shared by the page scripts that `use` it.
({
  // `top` and every open shadow root under it, breadth first.
  shadowRoots(top = document) {
    const roots = [top];
    for (let i = 0; i < roots.length; i++) {
      // The live collection of the document is the cheapest way to visit every element once.
      const all = roots[i] === document ? document.getElementsByTagName('*') : roots[i].querySelectorAll('*');
      for (let j = 0; j < all.length; j++) if (all[j].shadowRoot) roots.push(all[j].shadowRoot);
    }
    return roots;
  },
  // The innermost element at a point of the viewport: what a real click there would reach.
  elementAt(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  },
  // The focused element, inside the shadow roots that hold it.
  activeElement() {
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return active;
  },
})
