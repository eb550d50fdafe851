// What each kind of action needs of its element, checked in the page; `null` when not sure.
// uses: hit_test
(el, [kind, aimKey, wanted]) => {
  if (window !== window.top || !el.isConnected) return null;
  if (!(el.checkVisibility ? el.checkVisibility({visibilityProperty: true}) : el.getClientRects().length))
    return null;
  if (el.matches(':disabled') || el.closest('[aria-disabled=true]')) return null;
  const moving = document.getAnimations ? document.getAnimations().some(a => a.playState === 'running'
    && a.effect && a.effect.target && a.effect.target.contains && a.effect.target.contains(el)) : true;
  if (moving) return null;
  const tag = el.tagName;
  if (kind === 'fill') {
    const TEXT = ['text', 'search', 'email', 'url', 'tel', 'password'];
    const field = tag === 'TEXTAREA' || (tag === 'INPUT' && TEXT.includes(el.type));
    const lists = el.getAttribute('role') === 'combobox' || /^(list|both)$/i.test(el.getAttribute('aria-autocomplete') || '');
    if (!field || el.readOnly || !wanted || lists) return null;  // a field with a list: see fields.py
  }
  if (kind === 'select') {
    if (tag !== 'SELECT' || el.multiple || wanted.length !== 1) return null;
    const options = Array.from(el.options);
    const w = wanted[0];
    const hit = options.find(o => o.value === w) || options.find(o => o.label.trim() === w.trim())
      || options.find(o => o.text.trim().toLowerCase() === w.trim().toLowerCase());
    if (!hit || hit.disabled) return null;
    wanted = hit.value;
  }
  let checked = null;
  if (kind === 'check' || kind === 'uncheck') {
    if (tag !== 'INPUT' || !['checkbox', 'radio'].includes(el.type)) return null;
    if (kind === 'uncheck' && el.type === 'radio') return null;
    checked = el.checked;
    if (checked === (kind === 'check')) {  // nothing to click; held for the look after to read
      Object.defineProperty(window, aimKey, {value: new WeakRef(el), configurable: true});
      return {point: null, value: null};
    }
  }
  if (kind === 'fill' || kind === 'select') {
    Object.defineProperty(window, aimKey, {value: new WeakRef(el), configurable: true});
    const secret = kind === 'fill' && (el.type === 'password' || /password/i.test(el.autocomplete || ''));
    return {point: null, value: kind === 'select' ? wanted : null, secret};
  }
  const found = hit_test(el, true, kind === 'click' ? '' : aimKey);
  if (found.state !== 'ok') return null;
  return {point: found.point, value: null};
}
