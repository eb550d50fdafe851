"""A small observer living in each page: DOM mutations, and the messages a page shows.

An action asks it, before and after, what the page says (alerts, status and
live regions, toasts, open dialogs, fields marked invalid) and how many DOM
mutations happened; `settle` asks it to wait until the DOM has been quiet for a
while, counted from the last input the browser dispatched, and learns from it
when the document asked to navigate away. Its listeners are passive and it
reaches into open shadow roots, where web components keep their content.

Timers and frames the page schedules are counted by `pagework`, whose script
the probe adopts: a wait can end a frame after the last of them.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon import pagework
from refbrowse.daemon.session import Session, Tab

_PROBE_JS = """(key) => {
  if (window[key]) return;
  const probe = (() => {
  const state = {
    count: 0, last: performance.now(), began: 0, invalid: new Map(), input: 0, navigate: null, acting: false,
  };
  // The work the page was given that is due soon (see `pagework`), and the timer and frame functions
  // the page had before it could replace them: the probe's own waits are not the page's work.
  const work = (__WORK_JS__)(key + '_work');
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
    const out = [document];
    for (let i = 0; i < out.length; i++) {
      for (const el of out[i].querySelectorAll('*')) if (el.shadowRoot) out.push(el.shadowRoot);
    }
    out.forEach(watch);
    return out;
  };
  const all = selector => roots().flatMap(root => Array.from(root.querySelectorAll(selector)));
  const visible = el => el.checkVisibility ? el.checkVisibility() : !!el.getClientRects().length;
  const clean = text => (text || '').replace(/\\s+/g, ' ').trim();
  const byId = (el, ids) => clean((ids || '').split(/\\s+/).map(id => {
    const root = el.getRootNode();
    const found = (root.getElementById ? root.getElementById(id) : null) || document.getElementById(id);
    return found ? found.textContent : '';
  }).join(' '));
  const labelOf = el => clean(el.getAttribute('aria-label')) || byId(el, el.getAttribute('aria-labelledby'))
    || clean(el.labels && el.labels[0] ? el.labels[0].innerText : '') || clean(el.getAttribute('placeholder'))
    || clean(el.getAttribute('name')) || el.tagName.toLowerCase();
  const MESSAGE = '[role=alert], [role=status], [aria-live=polite], [aria-live=assertive], output, '
    + '[class*=toast i], [class*=snackbar i], [class*=flash i], [class*=notification i], .messagelist, '
    + '.alert';
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
  const report = withStamp => {
    // A counter badge ("0", "12") is no message.
    const texts = new Map(all(MESSAGE).filter(visible).map(el => [el, spoken(el)])
      .filter(([, t]) => t && !/^\\d+$/.test(t)));
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
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) {
      active = active.shadowRoot.activeElement;
    }
    const fields = all('input, textarea, select, option').map(el => [idOf(el), el.value, el.checked,
      el.indeterminate, el.selected, el.disabled].join('\u0001')).join('\u0002');
    return [performance.timeOrigin, state.count, location.href, document.title, scrollX, scrollY, innerWidth,
      innerHeight, devicePixelRatio, found.length, idOf(active), document.hasFocus(), sheets(), hash(fields),
      document.getElementsByTagName('*').length,
      // a transition still running can hide or show an element with no mutation: never the same stamp
      animating() ? performance.now() : ''].join('|');
  };
  return {
    report,
    stamp,
    begin: () => {
      state.invalid = new Map(); state.began = performance.now(); state.navigate = null; state.input = 0;
      state.acting = true;
      work.track(true, false);
      return report(false);
    },
    quiet: (quietMs, limitMs, floorMs, needContent, idleMs) => new Promise(resolve => {
      const start = performance.now();
      state.acting = false;  // the action has returned: what is dispatched from now on is the page's
      // The action's first wait, with its work counted: it can end a frame after the last of it.
      const counted = work.on && floorMs === 0 && (state.began > 0 || work.fromStart);
      let framed = 0, done = false;
      const finish = (now, away) => {
        done = true;
        work.track(false, false);
        resolve([Math.round(now - start), away]);
      };
      const settled = () => !needContent || meaningful();
      // Nothing the action started is still to run, a frame (its layout, resize and intersection
      // observers) has passed since the last of it and since the DOM last changed, and SHORTEST_MS
      // since the input (a timer set through a function the page kept before the action is not seen).
      const caughtUp = () => counted && !work.opaque && !work.timers.size && !work.frames.size
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
        const calm = (now - since >= need && !animating()) || caughtUp();
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
}"""

# One look, installing the probe first in a document that has none: one round trip either way.
_PROBE_JS = _PROBE_JS.replace("__WORK_JS__", pagework.WORK_JS, 1)

_CALL_JS = f"""([key, op, args]) => {{
  if (!window[key]) ({_PROBE_JS})(key);
  return window[key][op](...args);
}}"""

# The probe's stamp of the page (null when this document has no probe yet) and its element count.
LOOK_JS = """(key) => ({
  stamp: window[key] ? window[key].stamp() : null,
  elements: document.getElementsByTagName('*').length,
})"""

ANSWER_MS = 2_000  # a page that takes longer to answer a look is busy (a script that does not yield)
T = TypeVar("T")


class PageBusy(Exception):
    """The page did not answer a look in time: its script is busy."""


async def answered(step: Awaitable[T], limit_ms: int = ANSWER_MS) -> T:
    """`step`'s value, or `PageBusy` when the page does not answer within `limit_ms`."""
    try:
        return await asyncio.wait_for(step, limit_ms / 1000)
    except TimeoutError as exc:
        raise PageBusy(f"the page did not answer for {limit_ms} ms") from exc


Message = tuple[str, str, str]  # (kind, label, text): "alert", "", "Saved" or "invalid", "Email", "…"


@dataclass(frozen=True, slots=True)
class PageReport:
    """What the page showed at one moment."""

    count: int  # DOM mutations seen since the probe was installed
    document: str  # performance.timeOrigin: a new value means a new document
    url: str
    messages: tuple[Message, ...]
    elements: int = 0  # elements in the document (its shadow roots not counted)
    stamp: str | None = None  # the probe's stamp (see `prepared`), when asked for


@dataclass(frozen=True, slots=True)
class Quiet:
    """How a wait for quiet ended: the ms waited, and the URL the document asked to leave for ("" if none)."""

    waited_ms: int
    leaving: str


class Probe:
    """The observer of one document of one tab.

    It lives under a per-daemon random, non-enumerable name on the page's
    window rather than behind a Playwright handle: a handle held while a look
    waits on a busy page makes Playwright report the page as navigating, and
    the tab guard could then not see that the page is stuck.
    """

    def __init__(self, tab: Tab) -> None:
        self.tab = tab

    async def _call(self, op: str, *args: object) -> Any:
        return await self.tab.page.evaluate(_CALL_JS, [_KEY, op, list(args)])

    async def report(self, begin: bool = False, stamp: bool = False) -> PageReport:
        raw = await (self._call("begin") if begin else self._call("report", stamp))
        return PageReport(
            int(raw["count"]),
            str(raw["document"]),
            str(raw["url"]),
            tuple((str(k), str(label), str(text)) for k, label, text in raw["messages"]),
            int(raw["elements"]),
            str(raw["stamp"]) if raw["stamp"] is not None else None,
        )

    async def quiet(
        self, quiet_ms: int, limit_ms: int, floor_ms: int, need_content: bool, idle_ms: int | None = None
    ) -> Quiet:
        """Wait until no mutation for `quiet_ms` since the action began (and at least `floor_ms`
        from now), and, if asked, until the page shows something. With `idle_ms` and no floor, a
        page where nothing changed since the action began waits only that long. The wait counts
        from the action's last input too, and ends early when the document asks to navigate away."""
        args: list[object] = [quiet_ms, max(limit_ms, 0), floor_ms, need_content]
        waited, leaving = await self._call("quiet", *args, *([idle_ms] if idle_ms is not None else []))
        return Quiet(int(waited), str(leaving))


_KEY = "__refbrowse_probe_" + secrets.token_hex(6)


async def count_from_document_start(session: Session) -> None:
    """A session hook: each new document of the session counts its work from its start (see
    `pagework`), so the first wait after a navigation can end as soon as that work has run."""
    await session.context.add_init_script(pagework.from_document_start(_KEY + "_work"))


def probe_key() -> str:
    """The name the probe lives under in every page of this daemon."""
    return _KEY


async def observe(tab: Tab, begin: bool = False, stamp: bool = False) -> tuple[Probe, PageReport] | None:
    """The probe of the tab's current document and what it reports now (with its stamp if asked);
    None if the page is gone."""
    if tab.page.is_closed():
        return None
    probe = Probe(tab)
    try:
        return probe, await probe.report(begin, stamp)
    except PlaywrightError:
        return None  # the page is navigating or closing: there is nothing to observe yet
