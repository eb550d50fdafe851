(key) => {
  if (window[key]) return window[key];
  const TRACKED_MS = 50;
  // A timer a person's input set (a submit's status shown 150 ms later, a debounced search) is the
  // action's answer if it is due within the settle bound; so is one set by work already counted.
  const LATER_MS = 1500;
  const INPUTS = new Set(['click', 'submit', 'input', 'change', 'keydown', 'keyup', 'keypress',
    'pointerdown', 'pointerup', 'mousedown', 'mouseup', 'reset', 'search']);
  const RELAY_MS = 100;  // a message posted from an input's work is delivered within this
  const LIMIT_MS = 10000;  // a wait that never comes (--no-wait, a frame no one acts on): stop anyway
  const OPAQUE = [
    ['Worker', 'postMessage'], ['ServiceWorker', 'postMessage'], ['BroadcastChannel', 'postMessage'],
    ['WebSocket', 'send'], ['RTCDataChannel', 'send'], ['IDBFactory', 'open'], ['IDBDatabase', 'transaction'],
    ['FileReader', 'readAsArrayBuffer'], ['FileReader', 'readAsDataURL'], ['FileReader', 'readAsText'],
    ['Blob', 'text'], ['Blob', 'arrayBuffer'],
  ];
  const native = {
    setTimeout: window.setTimeout, clearTimeout: window.clearTimeout, raf: window.requestAnimationFrame,
  };
  const work = {
    native, SHORTEST_MS: 5, on: false, fromStart: false, timers: new Set(), frames: new Set(),
    later: new Set(), depth: 0, opaque: false, last: 0, relayUntil: 0, track: null,
  };
  const undo = [];
  const wrap = (owner, name, apply) => {
    const original = owner && owner[name];
    if (typeof original !== 'function') return;
    const own = Object.prototype.hasOwnProperty.call(owner, name);
    const proxy = new Proxy(original, { apply: (target, self, args) => apply(target, self, args) });
    try { owner[name] = proxy; } catch (e) { return; }
    undo.push(() => {
      if (owner[name] !== proxy) return;  // the page replaced it since: keep the page's
      if (own) owner[name] = original; else delete owner[name];
    });
  };
  // `args[0]` scheduled by `original` as counted work: its id is in `set` until it has run
  const counted = (set, original, self, args) => {
    if (!work.on) return Reflect.apply(original, self, args);
    const fn = args[0];
    let id = 0;
    args[0] = function () {
      work.depth += 1;
      try { return fn.apply(this, arguments); } finally {
        work.depth -= 1; set.delete(id); work.last = performance.now();
      }
    };
    id = Reflect.apply(original, self, args);
    set.add(id);
    return id;
  };
  const hook = () => {
    const due = args => typeof args[0] === 'function' ? Number(args[1]) || 0 : Infinity;
    const soon = args => due(args) <= TRACKED_MS;
    // A message the input's handler posted to the page itself is its work too: a framework's
    // scheduler (React's MessageChannel) runs the effect that sets a typeahead's debounce timer there.
    const relayed = () => window.event && window.event.type === 'message' && performance.now() < work.relayUntil;
    const fromInput = () => work.depth > 0 || (window.event && INPUTS.has(window.event.type)) || relayed();
    const later = args => due(args) <= LATER_MS && fromInput();
    wrap(window, 'setTimeout', (original, self, args) => {
      if (soon(args)) return counted(work.timers, original, self, args);
      return later(args) ? counted(work.later, original, self, args) : Reflect.apply(original, self, args);
    });
    // An interval an input started (RxJS's debounceTime schedules on one) is awaited until it first runs.
    wrap(window, 'setInterval', (original, self, args) =>
      later(args) ? counted(work.later, original, self, args) : Reflect.apply(original, self, args));
    wrap(window, 'requestAnimationFrame', (original, self, args) =>
      soon(args) ? counted(work.frames, original, self, args) : Reflect.apply(original, self, args));
    const { timers, frames } = work;
    const cancels = {
      clearTimeout: [timers, work.later], clearInterval: [timers, work.later], cancelAnimationFrame: [frames],
    };
    for (const [name, sets] of Object.entries(cancels)) {
      wrap(window, name, (original, self, args) => {
        sets.forEach(set => set.delete(args[0]));
        return Reflect.apply(original, self, args);
      });
    }
    // a message within the page (a scheduler's MessageChannel, postMessage to itself) is delivered at once
    for (const owner of [window, window.MessagePort && MessagePort.prototype]) {
      wrap(owner, 'postMessage', (original, self, args) => {
        if (work.on) work.last = performance.now();
        if (work.on && fromInput()) work.relayUntil = performance.now() + RELAY_MS;
        return Reflect.apply(original, self, args);
      });
    }
    for (const [type, name] of OPAQUE) {
      wrap(window[type] && window[type].prototype, name, (original, self, args) => {
        if (work.on) work.opaque = true;
        return Reflect.apply(original, self, args);
      });
    }
  };
  let generation = 0;
  work.track = (on, fromStart) => {
    undo.splice(0).reverse().forEach(step => { try { step(); } catch (e) {} });
    work.timers.clear(); work.frames.clear(); work.later.clear();
    Object.assign(work, { on, fromStart, opaque: false, last: 0, relayUntil: 0 });
    const mine = ++generation;
    if (!on) return;
    hook();
    native.setTimeout.call(window, () => { if (generation === mine) work.track(false, false); }, LIMIT_MS);
  };
  Object.defineProperty(window, key, { value: work, enumerable: false });
  return work;
}
