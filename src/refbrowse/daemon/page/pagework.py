"""The work a page schedules that is due soon, counted so that a wait can end once it has run.

From an action's start, and from a new document's start (the session's init
script, `from_document_start`), until the first wait for quiet after it
ends, the page's `setTimeout`, `requestAnimationFrame`, their cancels and a few
message senders are proxies that count what was scheduled (`WORK_JS`): the
wait can then end a frame after the last of it rather than a fixed window
after the input or the load. The page's own functions are put back after
(unless the page replaced them meanwhile); a proxy the page kept meanwhile
does what the function did. What the count cannot see (a timer set through a
function the page kept from before the action, later than `SHORTEST_MS`) is
the price of that shorter wait; a worker, socket, storage or file read brings
back the whole window. Whatever the page does with those functions, the wait
is never longer than that window, nor shorter than `SHORTEST_MS` and a frame.

The script keeps what it counts under its own name beside the probe (see
`pageprobe`), which adopts it; the daemon never calls it directly.
"""

from __future__ import annotations

import json

# Timers of up to TRACKED_MS and animation frames are counted until they have run (and whatever they
# set in turn); a message to a worker, socket, another context or storage marks the wait as one whose
# answer cannot be seen coming.
WORK_JS = r"""(key) => {
  if (window[key]) return window[key];
  const TRACKED_MS = 50;
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
    opaque: false, last: 0, track: null,
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
      try { return fn.apply(this, arguments); } finally { set.delete(id); work.last = performance.now(); }
    };
    id = Reflect.apply(original, self, args);
    set.add(id);
    return id;
  };
  const hook = () => {
    const soon = args => typeof args[0] === 'function' && (Number(args[1]) || 0) <= TRACKED_MS;
    wrap(window, 'setTimeout', (original, self, args) =>
      soon(args) ? counted(work.timers, original, self, args) : Reflect.apply(original, self, args));
    wrap(window, 'requestAnimationFrame', (original, self, args) =>
      soon(args) ? counted(work.frames, original, self, args) : Reflect.apply(original, self, args));
    const { timers, frames } = work;
    const cancels = { clearTimeout: timers, clearInterval: timers, cancelAnimationFrame: frames };
    for (const [name, set] of Object.entries(cancels)) {
      wrap(window, name, (original, self, args) => {
        set.delete(args[0]);
        return Reflect.apply(original, self, args);
      });
    }
    // a message within the page (a scheduler's MessageChannel, postMessage to itself) is delivered at once
    for (const owner of [window, window.MessagePort && MessagePort.prototype]) {
      wrap(owner, 'postMessage', (original, self, args) => {
        if (work.on) work.last = performance.now();
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
    work.timers.clear(); work.frames.clear();
    Object.assign(work, { on, fromStart, opaque: false, last: 0 });
    const mine = ++generation;
    if (!on) return;
    hook();
    native.setTimeout.call(window, () => { if (generation === mine) work.track(false, false); }, LIMIT_MS);
  };
  Object.defineProperty(window, key, { value: work, enumerable: false });
  return work;
}"""


def from_document_start(key: str) -> str:
    """An init script: the new document counts its work under `key` from its start."""
    return f"({WORK_JS})({json.dumps(key)}).track(true, true);"
