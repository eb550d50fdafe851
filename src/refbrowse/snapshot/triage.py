"""Page triage: what kind of page this is and what blocks it, in one evaluate.

The evaluate also brings what the snapshot needs from the page itself: the
document's identity (`performance.timeOrigin`), the viewport, and the values
of password fields (so the snapshot can hide them). Captchas mostly live in
cross-origin iframes, so their detection also looks at the URLs of
`page.frames`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page

_CAPTCHA_FRAME = re.compile(r"recaptcha|hcaptcha\.com|challenges\.cloudflare\.com|turnstile|captcha", re.I)

TRIAGE_JS = """() => {
  const vw = innerWidth, vh = innerHeight;
  const visible = e => {
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05;
  };
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const label = e => (e.getAttribute('aria-label') || (e.innerText || ''))
    .replace(/\\s+/g, ' ').trim().slice(0, 80);
  const fixed = e => {
    for (let n = e, i = 0; n && n !== document.body && i < 4; n = n.parentElement, i++) {
      const p = getComputedStyle(n).position;
      if (p === 'fixed' || p === 'sticky') return true;
    }
    return false;
  };
  const CONTROLS = 'a[href], button, input, select, textarea, [role=button], [role=link], [role=checkbox], '
    + '[role=switch], [role=tab], [tabindex]';
  const overlays = [];
  const add = (kind, e) => {
    if (overlays.some(o => o.el.contains(e) || e.contains(o.el))) return;
    overlays.push({kind, el: e});
  };
  document.querySelectorAll('dialog, [aria-modal="true"], [role=alertdialog]').forEach(e => {
    const modal = e.matches('dialog') ? e.matches(':modal') : true;
    if (modal && visible(e)) add('modal dialog', e);
  });
  const consent = '[id*=cookie i],[class*=cookie i],[id*=consent i],[class*=consent i],[id*=gdpr i],'
    + '[class*=gdpr i],[aria-label*=cookie i],[aria-label*=consent i]';
  Array.from(document.querySelectorAll(consent)).filter(e => visible(e) && fixed(e)
    && e.querySelector('button, a, [role=button], input')).forEach(e => add('cookie banner', e));
  for (const [fx, fy] of [[.5, .5], [.25, .25], [.75, .75]]) {
    for (let n = document.elementFromPoint(vw * fx, vh * fy); n && n !== document.body; n = n.parentElement) {
      const s = getComputedStyle(n), r = n.getBoundingClientRect();
      if (s.position === 'fixed' && r.width * r.height >= 0.6 * vw * vh && s.pointerEvents !== 'none') {
        add('full-screen layer', n);
        break;
      }
    }
  }
  const passwords = Array.from(document.querySelectorAll('input[type=password]'));
  const fields = document.querySelectorAll('input:not([type=hidden]), select, textarea').length;
  // textContent, not innerText: it needs no layout, and this only estimates how much text there is.
  const text = (document.body ? document.body.textContent : '') || '';
  const heading = (document.querySelector('h1') || {}).innerText || '';
  return {
    timeOrigin: String(performance.timeOrigin), title: document.title, url: location.href,
    viewport: [vw, vh],
    overlays: overlays.map(o => ({kind: o.kind, label: label(o.el), box: box(o.el),
      controls: Array.from(o.el.querySelectorAll(CONTROLS)).filter(visible)
        .map(e => box(e).map(Math.round))})),
    passwords: passwords.map(p => p.value).filter(Boolean),
    loginForm: passwords.some(visible),
    captchaInPage: !!document.querySelector('.g-recaptcha, .h-captcha, .cf-turnstile, [data-sitekey]'),
    forms: document.forms.length, fields,
    links: document.links.length,
    articles: document.querySelectorAll('article').length,
    paragraphs: Array.from(document.querySelectorAll('p')).filter(p => p.textContent.length > 80).length,
    textLength: text.length,
    searchBox: !!document.querySelector('[role=search], input[type=search]'),
    errorHint: /\\b(404|403|500|502|503|not found|page not found|forbidden|server error|unavailable)\\b/i
      .test(document.title + ' ' + heading),
  };
}"""


@dataclass(frozen=True, slots=True)
class Overlay:
    kind: str  # "modal dialog", "cookie banner" or "full-screen layer"
    label: str
    box: tuple[float, float, float, float]
    controls: frozenset[tuple[int, int, int, int]]  # boxes of the controls inside it


@dataclass(frozen=True, slots=True)
class Triage:
    title: str
    url: str
    document: str  # performance.timeOrigin of the main document
    viewport: tuple[int, int]
    page_type: str
    login_form: bool
    captcha: bool
    forms: int
    overlays: tuple[Overlay, ...]
    passwords: frozenset[str]

    def summary(self) -> str:
        yes = {True: "yes", False: "no"}
        return (
            f"page: {self.page_type} · login form: {yes[self.login_form]} · "
            f"captcha: {yes[self.captcha]} · forms: {self.forms}"
        )


async def triage(page: Page) -> Triage:
    facts: dict[str, Any] = await page.evaluate(TRIAGE_JS)
    frame_captcha = any(_CAPTCHA_FRAME.search(frame.url) for frame in page.frames[1:])
    return Triage(
        title=str(facts["title"]),
        url=str(facts["url"]),
        document=str(facts["timeOrigin"]),
        viewport=(int(facts["viewport"][0]), int(facts["viewport"][1])),
        page_type=page_type(facts),
        login_form=bool(facts["loginForm"]),
        captcha=bool(facts["captchaInPage"]) or frame_captcha,
        forms=int(facts["forms"]),
        overlays=tuple(_overlay(o) for o in facts["overlays"]),
        passwords=frozenset(str(p) for p in facts["passwords"]),
    )


def _overlay(found: dict[str, Any]) -> Overlay:
    x, y, w, h = found["box"]
    controls = frozenset((int(a), int(b), int(c), int(d)) for a, b, c, d in found["controls"])
    return Overlay(str(found["kind"]), str(found["label"]), (x, y, w, h), controls)


def page_type(facts: dict[str, Any]) -> str:
    """The first kind that fits: error, login, search results, article, form, listing, other."""
    url = str(facts["url"]).lower()
    if facts["errorHint"] and facts["textLength"] < 3000:
        return "error"
    if facts["loginForm"] and facts["fields"] <= 6:
        return "login"
    if re.search(r"[?&](q|query|search|s|k|keywords?)=", url) or ("/search" in url and facts["links"] >= 5):
        return "search results"
    if (facts["articles"] >= 1 and facts["paragraphs"] >= 2) or facts["paragraphs"] >= 5:
        return "article"
    if facts["fields"] >= 2:
        return "form"
    if facts["links"] >= 20:
        return "listing"
    return "other"
