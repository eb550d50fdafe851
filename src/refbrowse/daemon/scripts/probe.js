// The probe, installed once per document under `key`; the daemon's looks then call it with a few
// bytes (`probe_fast`, `input_begin_fast`) instead of sending its source each time.
// uses: page_work, dom, page_state, element_state, input_ready, triage, blank_document
(key) => {
  if (window[key]) return;
  const probe = (() => {
  const state = {
    count: 0, last: performance.now(), began: 0, invalid: new Map(), input: 0, navigate: null, acting: false,
  };
  // The work the page was given that is due soon (see `pagework`), and the timer and frame functions
  // the page had before it could replace them: the probe's own waits are not the page's work.
  const work = page_work(key + '_work');
  const { native } = work;
  const later = (fn, ms) => native.setTimeout.call(window, fn, ms);
  const observed = new WeakSet();
  const observer = new MutationObserver(records => {
    state.count += records.length;
    state.last = performance.now();
  });
  const watch = root => {
    if (observed.has(root)) return;
    observed.add(root);
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  const roots = () => {
    const out = dom.shadowRoots();
    out.forEach(watch);
    return out;
  };
  const all = selector => roots().flatMap(root => Array.from(root.querySelectorAll(selector)));
  const visible = el => el.checkVisibility ? el.checkVisibility() : !!el.getClientRects().length;
  const clean = text => (text || '').replace(/\s+/g, ' ').trim();
  const byId = (el, ids) => clean((ids || '').split(/\s+/).map(id => {
    const root = el.getRootNode();
    const found = (root.getElementById ? root.getElementById(id) : null) || document.getElementById(id);
    return found ? found.textContent : '';
  }).join(' '));
  const labelOf = el => clean(el.getAttribute('aria-label')) || byId(el, el.getAttribute('aria-labelledby'))
    || clean(el.labels && el.labels[0] ? el.labels[0].innerText : '') || clean(el.getAttribute('placeholder'))
    || clean(el.getAttribute('name')) || el.tagName.toLowerCase();
  const MESSAGE = '[role=alert], [role=status], [aria-live=polite], [aria-live=assertive], output, '
    + '[class*=toast i], [class*=snackbar i], [class*=flash i], [class*=notification i], .messagelist, '
    + '.alert, [class*=ok-message i], [class*=success-message i], [class*=info-message i], '
    + '[class*=warning-message i], [class*=error-message i], [class*=system-message i]';  // Roundup's, Trac's
  const DIALOG = 'dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]';
  // What a person or a screen reader gets of an element's text. Not what is aria-hidden, nor the
  // name of an icon-font glyph: Material's icons are ligatures (`<i class="material-icons">check_circle</i>`
  // draws a tick, its text is the glyph's name); such an element counts as a glyph only when its
  // text is one lower-case word, as ligature names are. What is not rendered, innerText leaves out
  // already. The common case (nothing of the kind inside) is one innerText; otherwise only the
  // branches that hold such an element are walked.
  const UNSPOKEN = '[aria-hidden=true], [class^=material-icons], [class*=" material-icons"], '
    + '[class^=material-symbols], [class*=" material-symbols"], .mat-ligature-font';
  const unspoken = el => el.matches(UNSPOKEN)
    && (el.getAttribute('aria-hidden') === 'true' || /^[a-z0-9_]+$/.test(el.textContent.trim()));
  const spoken = el => {
    if (!el.querySelector(UNSPOKEN)) return clean(el.innerText);
    let text = '';
    for (const child of el.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) text += child.data;
      else if (child.nodeType !== Node.ELEMENT_NODE || child.tagName === 'BR') text += ' ';
      else if (!unspoken(child) && child.checkVisibility({ visibilityProperty: true })) {
        const inline = getComputedStyle(child).display.startsWith('inline');
        text += inline ? spoken(child) : ` ${spoken(child)} `;
      }
    }
    return clean(text);
  };
  // A dialog's own name: its label, or its title, the first heading inside unless that heading
  // belongs to content the dialog lists (search results, a feed). A name taken from what the
  // dialog shows would change with it, and the same dialog would be said to close and open.
  const HEADING = 'h1, h2, h3, h4, h5, h6, [role=heading]';
  const LISTED = 'li, article, tr, [role=listitem], [role=article], [role=row], [role=option]';
  const dialogName = el => {
    const named = clean(el.getAttribute('aria-label')) || byId(el, el.getAttribute('aria-labelledby'));
    const heading = named ? null : el.querySelector(HEADING);
    const listed = heading && heading.closest(LISTED);
    const own = heading && visible(heading) && !(listed && el.contains(listed));
    return named || (own ? spoken(heading).slice(0, 80) : '');
  };
  const kind = el => {
    const role = el.getAttribute('role');
    if (role === 'alert' || role === 'status') return role;
    if (el.hasAttribute('aria-live')) return 'live region';
    return el.tagName === 'OUTPUT' ? 'output' : 'message';
  };
  const outermost = els => els.filter(el => !els.some(other => other !== el && other.contains(el)));
  // A timer an input's handler sets for N ms is due a little after the input's time + N: the idle
  // wait ends after that, so that a handler's `setTimeout(…, IDLE)` is within it.
  const INPUT_MARGIN_MS = 5;
  // The last input the browser dispatched (an action's click, keys, fill): timers its handlers set
  // count from here. Trusted events only, and input and change events dispatched by script while
  // the action runs (Playwright's select and upload dispatch them so): a page's own synthetic
  // events are not an action, and must not keep an action waiting.
  const inputAt = trusted => e => {
    if (e.isTrusted || (!trusted && state.acting)) state.input = performance.now();
  };
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'keydown', 'keyup']) {
    window.addEventListener(type, inputAt(true), { capture: true, passive: true });
  }
  for (const type of ['input', 'change']) {
    window.addEventListener(type, inputAt(false), { capture: true, passive: true });
  }
  // A navigation the document asked for (a link, a location change, a form, even from a timer):
  // the browser's request for it can reach the daemon after the page answers a look.
  if (window.navigation) navigation.addEventListener('navigate', e => { state.navigate = e; });
  const leaving = () => {
    const e = state.navigate;
    if (!e || e.defaultPrevented || e.destination.sameDocument || e.downloadRequest !== null
      || navigation.transition) return '';
    const landed = navigation.currentEntry && navigation.currentEntry.url === e.destination.url;
    return landed && e.navigationType !== 'reload' ? '' : e.destination.url;
  };
  document.addEventListener('invalid', e => {
    if (e.target instanceof Element) state.invalid.set(e.target, true);
  }, true);
  const invalidFields = () => {
    let userInvalid = ':invalid';
    try { document.querySelector(':user-invalid'); userInvalid = ':user-invalid'; } catch (e) {}
    // A field's own constraints (a number's step, a required field) block only the submit of the form
    // that owns it: one in no form (Gradio's, Streamlit's inputs) is invalid for the page only when the
    // page says so (aria-invalid) or checked it (an `invalid` event).
    const fields = all(`${userInvalid}, [aria-invalid=true]`).concat(Array.from(state.invalid.keys()))
      .filter(el => el.matches && ((el.matches(':invalid') && (el.form || state.invalid.has(el)))
        || el.getAttribute('aria-invalid') === 'true'));
    return Array.from(new Set(fields)).filter(el => el.isConnected && !(el instanceof HTMLFormElement)
      && !(el instanceof HTMLFieldSetElement)).map(el => {
      const why = clean(el.validationMessage) || byId(el, el.getAttribute('aria-errormessage'))
        || byId(el, el.getAttribute('aria-describedby')) || 'invalid';
      return ['invalid', labelOf(el), why];
    });
  };
  const LIST_COUNT = /^(\d+ (options?|results?|suggestions?|items?)( are)? available\b[^.]*\.?\s*)+$/i;
  // A message's own close control ("close", "clear this message", "×") is no words of it.
  const DISMISS = /\b(close|dismiss|hide|clear)\b|^[×✕✖]$/i;
  const undismissed = (el, text) => {
    for (const control of el.querySelectorAll('a, button, [role=button]')) {
      const words = clean(control.innerText);
      const says = [control.title, control.getAttribute('aria-label')].join(' ');
      if (!words || !DISMISS.test(words) && !DISMISS.test(says)) continue;
      if (text.startsWith(words + ' ')) text = text.slice(words.length + 1);
      else if (text.endsWith(' ' + words)) text = text.slice(0, -words.length - 1);
    }
    return text;
  };
  const report = withStamp => {
    // A counter badge ("0", "12") is no message, nor a list's count for screen readers ("4 options
    // available."): the list is in the report.
    const texts = new Map(all(MESSAGE).filter(visible).map(el => [el, undismissed(el, spoken(el))])
      .filter(([, t]) => t && !/^\d+$/.test(t) && !LIST_COUNT.test(t)));
    const messages = outermost(Array.from(texts.keys())).map(el => [kind(el), '', texts.get(el)]);
    const dialogs = all(DIALOG).filter(visible).map(el => ['dialog', dialogName(el), '']);
    return {
      count: state.count, document: String(performance.timeOrigin), url: location.href,
      elements: document.getElementsByTagName('*').length,
      messages: messages.concat(dialogs, invalidFields()),
      stamp: withStamp ? stamp() : null,
    };
  };
  // A finite CSS transition or animation still running: a menu or dialog on its way out,
  // which a page typically removes when it ends. Endless ones (spinners) do not count.
  const animating = () => !!document.getAnimations && document.getAnimations().some(a =>
    a.playState === 'running' && a.effect && a.effect.getTiming().iterations !== Infinity);
  // A loaded document with no script and no inline handler: nothing will ever fill it (a data: URL
  // or a server's empty page), so waiting for content there would only run out the budget.
  const handled = el => Array.prototype.some.call(el.attributes, a => a.name.startsWith('on'));
  const inert = () => document.readyState === 'complete' && !all('script').length
    && !roots().some(root => Array.prototype.some.call(root.querySelectorAll('*'), handled));
  const meaningful = () => !!document.body && (clean(document.body.innerText).length > 0
    || !!document.body.querySelector('input, button, select, textarea, img, svg, canvas, video, iframe')
    || roots().length > 1);
  // What a snapshot shows that a DOM mutation need not announce: field values and states, focus,
  // scroll, viewport, style sheets edited through the CSSOM, shadow roots attached since the last look,
  // finite CSS transitions and animations under way.
  const ids = new WeakMap();
  let nextId = 0;
  const idOf = el => el ? (ids.get(el) || (ids.set(el, ++nextId), nextId)) : 0;
  const hash = text => {
    let a = 0x811c9dc5, b = 0x01000193;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 16777619); b = Math.imul(b ^ c, 2246822519);
    }
    return (a >>> 0).toString(36) + (b >>> 0).toString(36) + ':' + text.length;
  };
  const sheets = () => {
    const parts = [document.adoptedStyleSheets ? document.adoptedStyleSheets.length : 0];
    for (const sheet of document.styleSheets) {
      try { parts.push(sheet.cssRules.length, sheet.disabled ? 1 : 0); } catch (e) { parts.push('x'); }
    }
    return parts.join(',');
  };
  const stamp = () => {
    const found = roots();
    const active = dom.activeElement();
    const fields = all('input, textarea, select, option').map(el => [idOf(el), el.value, el.checked,
      el.indeterminate, el.selected, el.disabled].join('')).join('');
    return [performance.timeOrigin, state.count, location.href, document.title, scrollX, scrollY, innerWidth,
      innerHeight, devicePixelRatio, found.length, idOf(active), document.hasFocus(), sheets(), hash(fields),
      document.getElementsByTagName('*').length,
      // a transition still running can hide or show an element with no mutation: never the same stamp
      animating() ? performance.now() : ''].join('|');
  };
  const begin = () => {
    state.invalid = new Map(); state.began = performance.now(); state.navigate = null; state.input = 0;
    state.acting = true;
    work.track(true, false);
    return report(false);
  };
  // What `also` asks besides an op's value: `shown`, the page's state (`page_state`); `report`, the
  // look with its stamp (a wait that ends with the look after the action); `held`, what the element
  // held under that key holds now (`element_state`; null when it went), the key freed unless `keep`.
  const extra = also => {
    const out = {};
    if (also && also.shown) out.shown = page_state();
    if (also && also.report) out.report = report(true);
    if (also && also.held) {
      const held = window[also.held];
      if (!also.keep) delete window[also.held];
      const el = held && held.deref();
      out.held = el && el.isConnected ? element_state(el) : null;
    }
    return out;
  };
  return {
    report,
    stamp,
    begin,
    // `stamped_triage`: the stamp is read before the facts, so no mutation can fall between. A
    // document of more than `limit` elements (when given) answers with its count alone.
    stampedTriage: limit => {
      const elements = document.getElementsByTagName('*').length;
      if (limit && elements > limit) return {elements};
      return {stamp: stamp(), facts: triage(), blank: blank_document(), elements};
    },
    // One op, as [value, extra] once its value is known (a wait's, when it ends).
    call: (op, args, also) => {
      const value = probe[op](...args);
      return value instanceof Promise ? value.then(v => [v, extra(also)]) : [value, extra(also)];
    },
    // The action on `el` begun when it is ready for `kind` (`input_ready`), the look before and the
    // page's state taken with it; null when not sure, and nothing begun.
    beginInput: (el, kind, aimKey, wanted) => {
      const ready = input_ready(el, [kind, aimKey, wanted]);
      return ready ? {...ready, before: begin(), shown: page_state()} : null;
    },
    quiet: (quietMs, limitMs, floorMs, needContent, idleMs) => new Promise(resolve => {
      const start = performance.now();
      state.acting = false;  // the action has returned: what is dispatched from now on is the page's
      // The action's first wait, with its work counted: it can end a frame after the last of it.
      const counted = work.on && floorMs === 0 && (state.began > 0 || work.fromStart);
      let framed = 0, done = false;
      let empty = false;  // it ended on an empty document that nothing will fill
      const finish = (now, away) => {
        done = true;
        work.track(false, false);
        resolve([Math.round(now - start), away, empty]);
      };
      const settled = () => !needContent || meaningful() || (empty = inert());
      // Nothing the action started is still to run, a frame (its layout, resize and intersection
      // observers) has passed since the last of it and since the DOM last changed, and SHORTEST_MS
      // since the input (a timer set through a function the page kept before the action is not seen).
      const caughtUp = () => counted && !work.opaque && !work.timers.size && !work.frames.size && !work.later.size
        && framed > Math.max(state.input, state.last, work.last, state.began) && !animating()
        && performance.now() - Math.max(state.input, state.began) >= work.SHORTEST_MS;
      const check = () => {
        if (done) return;
        const now = performance.now();
        const away = leaving();
        if (away) {  // said once: the daemon follows it, and a navigation that never comes is not said again
          state.navigate = null;
          finish(now, away);
          return;
        }
        const since = Math.max(state.last, state.began, state.input + INPUT_MARGIN_MS,
          start + floorMs - quietMs);
        // Nothing changed since the action began (or, in a new document, since the probe came):
        // a shorter wait shows that nothing will.
        const untouched = state.began ? state.last < state.began : state.count === 0;
        const need = idleMs !== undefined && floorMs === 0 && untouched ? idleMs : quietMs;
        // a timer the action's input set for later (a status shown after a submit) is still to come
        const awaited = counted && !work.opaque && work.later.size > 0;
        const calm = !awaited && ((now - since >= need && !animating()) || caughtUp());
        if ((calm && settled()) || now - start >= limitMs) {
          finish(now, '');
        } else {
          later(check, Math.max(10, Math.min(need - (now - since), limitMs - (now - start))));
        }
      };
      // Each frame, then once the frame's work is done, see whether the action's work has run out.
      // A page that renders no frames (a hidden tab) waits the window above.
      const frame = () => native.raf.call(window, () => {
        framed = performance.now();
        later(() => { if (!done && caughtUp()) check(); else if (!done) frame(); }, 0);
      });
      roots();
      check();
      if (counted && !done) frame();
    }),
  };
  })();
  Object.defineProperty(window, key, { value: probe, enumerable: false });
}
