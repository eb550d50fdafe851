"""Every selector argument goes through here: a CSS selector, `@eN` or `@cN`.

Resolution checks the element exists before any action, so a missing element
is a clear message at once, never a timeout. A ref is checked against what it
was when it was given (role and name, or `isConnected` for `@c` refs): a stale
ref fails, it never acts on another element. `prepare` readies the one element
an action will touch: exactly one match, scrolled into view, and not covered
by another element at its centre.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.refs import Ref, RefTarget, parse_ref, stale
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.covered import overlay_refusal
from refbrowse.errors import BrowseError, ElementNotFound, PageError

# Roles Playwright's role engine answers for; other roles skip the name check.
_NAMED_ROLES = frozenset(
    (  # noqa: SIM905 - one word list reads better than sixty lines of quotes
        "alert alertdialog application article banner button cell checkbox columnheader combobox "
        "complementary contentinfo dialog document feed figure form grid gridcell group heading img "
        "link list listbox listitem main menu menubar menuitem menuitemcheckbox menuitemradio "
        "navigation option progressbar radio radiogroup region row rowgroup rowheader scrollbar "
        "search searchbox slider spinbutton status switch tab table tablist tabpanel textbox "
        "toolbar tree treegrid treeitem"
    ).split()
)

_MARK = "data-refbrowse-c"
_REACHED_MARK_JS = script("reached_mark")

# Scrolls the element into view when its centre is outside, then (if asked) hit-tests that centre.
_HIT_TEST_JS = script("hit_test")


# The aimed element checked again where it is now; its point, or null (gone, moved away, covered).
_AIM_JS = script("aim")


async def click_aimed(tab: Tab, aimed: Aimed) -> None:
    """Click what `aim` found: with the mouse at its point, checked again just now.

    Playwright's own click resolves the element again, scrolls and measures it
    in several round trips (~20 ms here); the page still holds the aimed
    element, so one look and one mouse click do. An element not ready, in a
    frame, or that moved or got covered meanwhile is clicked the Playwright way.
    """
    if aimed.key:
        point = await tab.page.evaluate(_AIM_JS, aimed.key)
        if point is not None:
            await tab.page.mouse.click(float(point[0]), float(point[1]))
            return
    await aimed.locator.click(force=aimed.ready, no_wait_after=True)


async def resolve(tab: Tab, selector: str) -> Locator:
    """A locator for `selector` that matches at least one element right now."""
    ref = parse_ref(selector)
    if ref is not None:
        return await resolve_ref(tab, ref)
    locator = tab.page.locator(selector)
    count = await _count(locator, selector)
    if count == 0:
        raise ElementNotFound(
            f"no element matches {selector!r} on {tab.page.url}",
            "check the selector, or run `browse snapshot -i` and use a ref",
        )
    return locator


async def resolve_one(tab: Tab, selector: str) -> Locator:
    """A locator for `selector` that matches exactly one element right now."""
    locator = await resolve(tab, selector)
    if parse_ref(selector) is None:
        count = await _count(locator, selector)
        if count > 1:
            matches = await _matches(tab, locator, count)
            raise PageError(
                f"{selector!r} matches {count} elements; an action needs exactly one:\n{matches}",
                "act on one of them by its ref, or make the selector more specific",
            )
    return locator


_SHOWN_MATCHES = 8


async def _matches(tab: Tab, locator: Locator, count: int) -> str:
    """The first matches of an ambiguous selector, a line each with a ref to act on instead."""
    from refbrowse.daemon.page.snapshot.matches import refs_of  # the snapshot service sits above

    try:
        shown = await refs_of(tab, locator, _SHOWN_MATCHES)
    except (BrowseError, PlaywrightError):
        return f"  (run `browse find TEXT` or `browse snapshot -i` to tell the {count} apart)"
    more = [f"  … {count - len(shown)} more"] if count > len(shown) else []
    return "\n".join([f"  {line}" for line in shown] + more)


def _still_same(tab: Tab, target: RefTarget) -> tuple[Locator, Locator | None]:
    """The ref's locator, and one that matches only while it keeps the role and name it was given."""
    locator = tab.page.get_by_ref(target.pw_ref)
    if not (target.name and target.role in _NAMED_ROLES):
        return locator, None
    role: Any = target.role  # one of _NAMED_ROLES, which Playwright types as a Literal
    # The name as the snapshot computed it leaves hidden text out; counted with hidden elements
    # included, the role engine would add it. Either reading means "still what it was".
    name = _as_shown(target.name)
    by_role = tab.page.get_by_role(role, name=name)
    hidden = tab.page.get_by_role(role, name=name, include_hidden=True)
    return locator, locator.and_(by_role.or_(hidden))


# An icon font's glyphs, which snapshots leave out (those of the first plane: JavaScript runs the regex)
_GLYPHS = "[\ue000-\uf8ff\\s]"


def _as_shown(name: str) -> re.Pattern[str]:
    """The whole name as the snapshot showed it, icon glyphs allowed around and between its words
    (Node-RED's `milliseconds since epoch` and its caret: the role engine's name holds the glyph)."""
    words = (re.escape(word) for word in name.split())
    return re.compile(f"^{_GLYPHS}*{(_GLYPHS + '+').join(words)}{_GLYPHS}*$")


async def resolve_ref(tab: Tab, ref: Ref) -> Locator:
    target = tab.refs.target(ref)
    if target.handle is not None or target.reached:
        return await _clickable_locator(tab, target)
    locator, same = _still_same(tab, target)
    if same is not None:
        if await _ref_count(same) == 1:
            return locator  # one round trip in the common case: there, and still what it was
        if await _ref_count(locator) == 1:
            raise stale(target, "has changed its role or name since the latest snapshot")
        raise stale(target)
    if await _ref_count(locator) != 1:
        raise stale(target)
    return locator


async def _ref_count(locator: Locator) -> int:
    """Playwright refuses a ref of a frame or document that is gone: that is a stale ref too."""
    try:
        return await locator.count()
    except PlaywrightError:
        return 0


async def _clickable_locator(tab: Tab, target: RefTarget) -> Locator:
    """@c refs hold the element itself (or, from the reach scan, its id there); a mark lets every
    locator-based command reach it."""
    mark = f"{target.ref.number}-{secrets.token_hex(4)}"
    try:
        if target.handle is not None:
            connected = await target.handle.evaluate(
                f"(e, mark) => e.isConnected && (e.setAttribute('{_MARK}', mark), true)", mark
            )
        else:
            connected = await tab.page.evaluate(_REACHED_MARK_JS, [target.reached, _MARK, mark])
    except PlaywrightError:
        connected = False
    if not connected:
        raise stale(target, "is no longer in the page")
    locator = tab.page.locator(f'[{_MARK}="{mark}"]')
    if await _ref_count(locator) != 1:
        raise stale(target, "could not be found again")
    return locator


async def _count(locator: Locator, selector: str) -> int:
    try:
        return await locator.count()
    except PlaywrightError as exc:
        raise translate(exc, f"resolving {selector!r}") from exc


async def evaluate_all(locator: Locator, expression: str) -> Any:
    """`Locator.evaluate_all` that also works on a ref: Playwright 1.65 passes it no elements for ai refs."""
    found = await locator.evaluate_all(expression)
    if found or not await locator.count():
        return found
    handles = [handle for each in await locator.all() if (handle := await each.element_handle())]
    try:
        return await handles[0].evaluate(f"(_, els) => ({expression})(els)", handles)
    finally:
        for handle in handles:
            await handle.dispose()


async def prepare(tab: Tab, selector: str, *, force: bool = False, hit_test: bool = True) -> Locator:
    """The one element an action will touch; for pointer actions, in view and not covered.

    Without the hit test (fill, select) the action scrolls by itself, so no
    extra round trip is spent here.
    """
    if not hit_test:
        return await resolve_one(tab, selector)
    locator, _ = await prepare_pointer(tab, selector, force=force)
    return locator


async def prepare_pointer(tab: Tab, selector: str, *, force: bool = False) -> tuple[Locator, bool]:
    """The element a click or hover will touch, and whether it is ready for one.

    Ready means in view, enabled and not covered at its centre, checked just
    now: the action can then skip Playwright's own checks, whose wait for two
    stable animation frames costs ~35 ms. A disabled element is not ready, and
    the action waits for it to be enabled as Playwright does.
    """
    aimed = await aim(tab, selector, force=force, keep="")
    return aimed.locator, aimed.ready


@dataclass(frozen=True, slots=True)
class Aimed:
    """An element ready for a click, kept in the page under `key` ("" when not kept)."""

    locator: Locator
    ready: bool
    key: str
    by_label: bool = False  # a click at its centre reaches one of its labels (a box hidden inside it)


async def aim(tab: Tab, selector: str, *, force: bool = False, keep: str | None = None) -> Aimed:
    """`prepare_pointer`, keeping the element in the page for `click_aimed` (under a fresh name)."""
    key = ("__refbrowse_aim_" + secrets.token_hex(8)) if keep is None else keep
    quick = None if force else await _resolve_and_hit_test(tab, selector, key)
    if quick is not None:
        locator, result = quick
    else:
        locator = await resolve_one(tab, selector)
        if force:
            return Aimed(locator, True, "")
        try:
            result = await locator.evaluate(_AIM_AT_JS, key)
        except PlaywrightError as exc:
            raise translate(exc, f"getting {selector!r} ready") from exc
    if result.get("state") == "covered":
        point, cover = result.get("point") or (0.0, 0.0), f"{_role(result)}{result['path']}"
        raise await overlay_refusal(tab, selector, (point[0], point[1]), cover) or _covered(selector, result)
    ready = result.get("state") == "ok"
    return Aimed(locator, ready, key if ready else "", bool(result.get("byLabel")))


_AIM_AT_JS = script("aim_at")


async def _resolve_and_hit_test(tab: Tab, selector: str, key: str) -> tuple[Locator, dict[str, Any]] | None:
    """The common case in one round trip: exactly one element, still what its ref was, hit-tested.

    Playwright's `Locator.evaluate` waits for the element, then evaluates, then
    lets the handle go (three round trips, ~8 ms here, ~20 under load); the
    frame's `eval_on_selector` resolves strictly and evaluates at once, and
    fails at once when there is not exactly one match. Any failure (a stale or
    ambiguous target, a @c ref) is left to the full path, which says what is wrong.
    """
    ref = parse_ref(selector)
    if ref is None:
        locator, query = tab.page.locator(selector), selector
    else:
        located = _strict(tab, ref)
        if located is None:
            return None
        locator, query = located
    try:
        return locator, await tab.page.eval_on_selector(query, _AIM_AT_JS, key, strict=True)
    except PlaywrightError:
        return None


def _strict(tab: Tab, ref: Ref) -> tuple[Locator, str] | None:
    """The ref's locator, and a selector that matches it only while it is still what it was."""
    try:
        target = tab.refs.target(ref)
    except BrowseError:
        return None
    if target.handle is not None or target.reached:
        return None
    locator, same = _still_same(tab, target)
    query = _selector_of(same or locator)
    return None if query is None else (locator, query)


def strict_selector(tab: Tab, ref: Ref) -> str | None:
    """A selector for `eval_on_selector` that matches the ref's element only while it is still what
    it was; None for a ref with no such selector (a @c ref, an unknown ref)."""
    located = _strict(tab, ref)
    return None if located is None else located[1]


def _selector_of(locator: Locator) -> str | None:
    """The selector a locator was built from: Playwright keeps it on the locator's implementation
    (pinned version; `test_interact` covers this path), and there is no public way to read it."""
    selector = getattr(getattr(locator, "_impl_obj", None), "_selector", None)
    return selector if isinstance(selector, str) else None


def _role(result: dict[str, Any]) -> str:
    return f"{result['role']} " if result.get("role") else ""


def _covered(selector: str, result: dict[str, Any]) -> PageError:
    label = f' "{result["label"]}"' if result.get("label") else ""
    return PageError(
        f"{selector} is covered by another element: {_role(result)}{result['path']}{label}",
        "deal with that overlay first (close or accept it: `browse snapshot -i` lists it at the top), "
        "or use --force",
    )
