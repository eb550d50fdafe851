// uses: passage_block
(id) => {
  const el = document.getElementById(id) || document.getElementsByName(id)[0];
  if (!el) return null;
  // A link to its own id (a foldable heading's trigger, as Trac makes them), or a heading holding one:
  // a click there toggles or marks the section, it does not take the reader somewhere.
  const own = a => a.getAttribute('href') === '#' + id;
  const heading = /^H[1-6]$/.test(el.tagName) && [...el.querySelectorAll('a[href]')].some(own);
  return [...passage_block(el), heading || (el.matches('a[href]') && own(el))];
}
