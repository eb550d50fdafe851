() => {
  const body = document.body;
  if (!body) return [0, 0, 0, 0, 0, 0];
  const shown = e => e.checkVisibility ? e.checkVisibility() : !!e.getClientRects().length;
  // a determinate bar at its end (a kernel's idle status circle at 100 of 100) is waiting for nothing
  const complete = e => {
    const now = e.tagName === 'PROGRESS' ? e.getAttribute('value') : e.getAttribute('aria-valuenow');
    const max = e.tagName === 'PROGRESS' ? e.getAttribute('max') || '1' : e.getAttribute('aria-valuemax') || '100';
    return now !== null && now !== '' && Number(now) >= Number(max);
  };
  // a busy sign named so for screen readers ("Loading…", Streamlit's "Running..." while its script runs)
  const busyLabel = /^(loading|running|please wait)\b.{0,12}$/i;
  const indicators = Array.from(body.querySelectorAll(
    '[role=progressbar], [aria-busy=true], progress, [class*=spinner i], [class*=loading i], [aria-label]'))
    .filter(e => (!e.matches('[aria-label]:not([role=progressbar], [aria-busy=true], progress, [class*=spinner i],'
      + ' [class*=loading i])') || busyLabel.test(e.getAttribute('aria-label').trim())) && shown(e) && !complete(e));
  // a loading state in words: "Loading", "Please wait", or work going on that ends in an ellipsis
  // (an autosave's "Saving…" until its "Saved", a button's "Submitting...")
  const waiting = /^(loading|please wait)\b.{0,12}$/i;
  const working = new RegExp('^(saving|processing|uploading|submitting|sending|updating|deleting|publishing'
    + '|searching|syncing|fetching|generating|connecting|signing in|logging in)\\b.{0,16}(…|\\.\\.\\.)$', 'i');
  let said = 0;
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), seen = 0; n && seen < 5000; n = walker.nextNode(), seen++) {
    const text = n.data.trim();
    if (text.length < 40 && (waiting.test(text) || working.test(text)) && n.parentElement
      && shown(n.parentElement)) said++;
  }
  const controls = body.querySelectorAll('a[href], button, input, select, textarea, [role=button]').length;
  const elements = document.getElementsByTagName('*').length;
  // an app's main panel laid out but holding nothing yet: the shell is up, its content is not
  const main = body.querySelector('main, [role=main]');
  const box = main && shown(main) ? main.getBoundingClientRect() : null;
  const bare = box && box.width * box.height >= 40000
    && !main.querySelector('a[href], button, input, select, textarea, [role=button], img, svg, canvas, iframe')
    && (main.textContent || '').length < 2000 && !(main.innerText || '').trim();
  // innerText lays the page out: a page this big is no empty shell, and its text need not be measured
  const text = elements > 2000 ? 1e6 : (body.innerText || '').trim().length;
  // requests that have ended: an app fetching what it will show is still at work while its DOM waits
  const fetched = performance.getEntriesByType('resource').length;
  return [elements, text, controls, indicators.length + said, bare ? 1 : 0, fetched];
}
