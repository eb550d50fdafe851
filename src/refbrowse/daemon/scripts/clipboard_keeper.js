// An init script: the page's clipboard is its session's own. Chromium has one clipboard for all its
// contexts, so what a page writes goes to the session's clipboard in the daemon (through `binding`, a
// function exposed to this context only), a read gets the session's clipboard if the agent granted
// clipboard-read (else NotAllowedError, as a browser answers), and what the page copies or cuts (a
// person's Ctrl+C, a button's execCommand('copy')) is told to the daemon.
binding => {
  const keeper = window[binding];
  if (typeof keeper !== 'function' || !window.Clipboard || window[Symbol.for('refbrowse.clipboard')]) return;
  Object.defineProperty(window, Symbol.for('refbrowse.clipboard'), {value: true});
  const denied = () => new DOMException('Read permission denied.', 'NotAllowedError');
  const read = async () => {
    const text = await keeper('read');
    if (typeof text !== 'string') throw denied();
    return text;
  };
  const textOf = async items => {
    for (const item of items || []) {
      if (item.types.includes('text/plain')) return await (await item.getType('text/plain')).text();
    }
    return '';
  };
  const methods = {
    writeText: async text => { await keeper('write', String(text)); },
    write: async items => { await keeper('write', await textOf(items)); },
    readText: read,
    read: async () => [new ClipboardItem({'text/plain': new Blob([await read()], {type: 'text/plain'})})],
  };
  for (const [name, fn] of Object.entries(methods)) {
    Object.defineProperty(Clipboard.prototype, name, {value: fn, writable: true, configurable: true});
  }
  const selected = () => {
    const field = document.activeElement;
    if (field && typeof field.selectionStart === 'number' && typeof field.value === 'string') {
      return field.value.slice(field.selectionStart, field.selectionEnd);
    }
    return String(getSelection() || '');
  };
  // Last in the bubbling order: the page's own handlers have set (or not) what is copied.
  const copied = event => {
    const text = event.defaultPrevented ? event.clipboardData.getData('text/plain') : selected();
    keeper('copied', text).catch(() => {});
  };
  addEventListener('copy', copied);
  addEventListener('cut', copied);
}
