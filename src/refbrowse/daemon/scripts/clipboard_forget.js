// Chromium's clipboard emptied from a page, without focusing it: a copy whose data is "", caught before
// the page's own handlers (run in an isolated world, with a user gesture, so the copy is allowed).
() => {
  const empty = event => {
    event.clipboardData.setData('text/plain', '');
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  document.addEventListener('copy', empty, true);
  try {
    return document.execCommand('copy');
  } finally {
    document.removeEventListener('copy', empty, true);
  }
}
