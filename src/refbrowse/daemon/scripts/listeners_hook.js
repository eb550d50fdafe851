// An init script: remembers the elements that get a listener a person's input would set off (a click, a
// press, a key, a drag), so that controls made of plain elements (a datepicker's Prev, a sortable list's
// items) are found without asking DevTools of every element. Held weakly (a removed element is not kept
// alive for it) under a symbol of its own.
() => {
  const key = Symbol.for('refbrowse.reach');
  if (window[key]) return;
  const ACTING = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart',
    'dblclick', 'keydown', 'dragstart']);
  const LIMIT = 20000;
  const state = {refs: [], types: new WeakMap(), handlers: new WeakMap(), ids: new WeakMap(), next: 1,
    found: [], dropped: 0};
  Object.defineProperty(window, key, {value: state});
  const compact = () => { state.refs = state.refs.filter(r => r.deref() && r.deref().isConnected); };
  const original = EventTarget.prototype.addEventListener;
  const record = function (type, ...rest) {
    if (ACTING.has(type) && this instanceof Element) {
      const types = state.types.get(this);
      const handlers = state.handlers.get(this);
      if (typeof rest[0] === 'function') {  // its source names what it delegates to: closest('.reply')
        if (handlers) { if (handlers.length < 8) handlers.push(rest[0]); } else state.handlers.set(this, [rest[0]]);
      }
      if (types) types.add(type);
      else {
        // full: drop the removed ones now and then, not at every call (a page adding 50,000 listeners)
        if (state.refs.length >= LIMIT && state.dropped++ % 2000 === 0) compact();
        if (state.refs.length < LIMIT) {
          state.types.set(this, new Set([type]));
          state.refs.push(new WeakRef(this));
        }
      }
    }
    return original.call(this, type, ...rest);
  };
  Object.defineProperty(record, 'name', {value: 'addEventListener'});
  EventTarget.prototype.addEventListener = record;
}
