// What a person's click at the element's middle lands on, in words for a report: its label or the
// first line of its text (60 characters at most); '' when nothing is there to name.
(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) || el;
  const named = hit.closest('[aria-label], [title]');
  const label = (hit.getAttribute('aria-label') || (named && el.contains(named) ? named.getAttribute('aria-label') || named.title : '') || '');
  const text = label || (hit.innerText || hit.value || '').split('\n')[0];
  return text.replace(/\s+/g, ' ').trim().slice(0, 60);
}
