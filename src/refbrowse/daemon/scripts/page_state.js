() => {
  const body = document.body;
  if (!body) return [0, 0, 0, 0];
  const shown = e => e.checkVisibility ? e.checkVisibility() : !!e.getClientRects().length;
  const indicators = Array.from(body.querySelectorAll(
    '[role=progressbar], [aria-busy=true], progress, [class*=spinner i], [class*=loading i]')).filter(shown);
  let said = 0;
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), seen = 0; n && seen < 5000; n = walker.nextNode(), seen++) {
    const text = n.data.trim();
    if (text.length < 40 && /^(loading|please wait)\b.{0,12}$/i.test(text) && n.parentElement
      && shown(n.parentElement)) said++;
  }
  const controls = body.querySelectorAll('a[href], button, input, select, textarea, [role=button]').length;
  const elements = document.getElementsByTagName('*').length;
  // innerText lays the page out: a page this big is no empty shell, and its text need not be measured
  const text = elements > 2000 ? 1e6 : (body.innerText || '').trim().length;
  return [elements, text, controls, indicators.length + said];
}
