"""Short refs (`@e3`, `@c2`) and the per-tab map from them to page elements.

`parse_ref` accepts `@e3`, `e3` and `ref=e3`. Numbers are given per tab and
never reused within a tab: an `@e` number stands for one Playwright ai ref in
one document, so the same element keeps its number across snapshots (Playwright
keeps its ref across insertions and `pushState`) and a re-rendered or renamed
element, or any element of a new document, gets a fresh one. The snapshot
service fills the map; a ref that is not in the latest snapshot fails at once,
naming what it was and how to get fresh refs.

One exception keeps numbers where Playwright changes its refs under the same
element: a modal that sets `aria-hidden` on the rest of the page (MUI, Radix,
react-aria) takes the names of the controls behind it, and Playwright gives each
a new ref, again when the modal closes. Renumbered, the whole page read as new
and every ref the agent held went stale. An element that went into or out of
hiding, in the same document, keeps its number when one element of the last
snapshot left with exactly its role and box, and their names do not differ
(one of them may have none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.async_api import ElementHandle

from refbrowse.errors import StaleRef

_REF = re.compile(r"^(?:@|ref=)?([ec])([1-9][0-9]*)$")
_FORGET_AFTER = 5_000  # refs kept for error messages; older ones are only "unknown"


@dataclass(frozen=True, slots=True)
class Ref:
    kind: str  # "e": from the accessibility tree; "c": a clickable found outside it
    number: int

    def __str__(self) -> str:
        return f"@{self.kind}{self.number}"


@dataclass(frozen=True, slots=True)
class RefTarget:
    """What a ref points at, and what it was when it was given."""

    ref: Ref
    role: str
    name: str
    pw_ref: str = ""  # Playwright's ai ref, for @e refs
    document: str = ""  # the main document it was taken in (performance.timeOrigin)
    handle: ElementHandle | None = None  # the element itself, for @c refs
    in_frame: bool = False
    states: tuple[str, ...] = ()  # checked, disabled, expanded... as the snapshot showed them
    box: tuple[float, float, float, float] | None = None  # x, y, width, height in the viewport
    muted: bool = False  # inside an aria-hidden part of the page (behind a modal)
    reached: int = 0  # for a @c ref of the reach scan: the element's id there (it holds no handle)
    said: str = ""  # the words an unnamed element shows (a day link's "12"), for messages about it
    # how the view told an unnamed field apart (`(near "Status")`, `: "- no selection -"`): a select's
    # words are all its options', a text box's its value
    told: str = ""

    def describe(self) -> str:
        shown = self.name or self.said
        if shown:
            return f'{self.role} "{shown}"'
        return f"{self.role}{'' if self.told.startswith(':') else ' '}{self.told}" if self.told else self.role


def parse_ref(text: str) -> Ref | None:
    match = _REF.match(text.strip())
    return Ref(match.group(1), int(match.group(2))) if match else None


CURRENT_REFS = "to get current refs"  # in every stale ref's hint: what the handoff hint leaves alone


class RefMap:
    """The refs of one tab. Empty until a snapshot fills it."""

    def __init__(self) -> None:
        self._next = {"e": 1, "c": 1}
        self._numbers: dict[tuple[str, str], int] = {}  # (document, Playwright ref) -> number
        self._document = ""  # the document the numbers are of
        self._targets: dict[Ref, RefTarget] = {}
        self._live: set[Ref] = set()
        self._retired: dict[Ref, str] = {}  # refs retired all at once, with why
        # (role, box) -> the last snapshot's targets whose Playwright ref is not in this one
        self._left: dict[tuple[str, object], list[RefTarget]] = {}
        # Playwright refs that `snapshot -C` found clickable (or draggable) where ai mode showed a plain
        # wrapper, with the marks it gave them: later snapshots of the document keep their refs
        self._promoted: dict[tuple[str, str], frozenset[str]] = {}
        # (document, id in the reach scan) -> @c number of an element outside the tree (see `give_reached`)
        self._reached: dict[tuple[str, int], int] = {}
        # Playwright refs of elements `find` gave a ref though no view lists them (a paragraph it found
        # words in): later snapshots of the document give them again, so the ref the agent holds stays
        self._found: set[tuple[str, str]] = set()

    def retire_all(self, why: str) -> None:
        """Every live ref stops resolving (the page under them was replaced); each says `why`."""
        for ref in self._live:
            self._retired[ref] = why
        for ref in [r for r in self._live if r.kind == "c"]:
            self._targets[ref] = _without_handle(self._targets[ref])
        self._live = set()
        self._numbers.clear()

    def begin(self, document: str = "", present: frozenset[str] = frozenset()) -> None:
        """A new snapshot: every @e ref must be given again to stay live. `present`: the Playwright
        refs of this snapshot of `document`, to tell the elements that left it (see the module's doc)."""
        self._left = {}
        if document and document == self._document:
            for ref in self._live:
                target = self._targets[ref]
                if ref.kind == "e" and target.pw_ref not in present and target.box and all(target.box[2:]):
                    self._left.setdefault((target.role, target.box), []).append(target)
        self._live = {ref for ref in self._live if ref.kind == "c" and not self._targets[ref].reached}
        self._forget_oldest()

    def give(
        self,
        document: str,
        pw_ref: str,
        role: str,
        name: str,
        in_frame: bool = False,
        states: tuple[str, ...] = (),
        box: tuple[float, float, float, float] | None = None,
        muted: bool = False,
        said: str = "",
        told: str = "",
    ) -> Ref:
        """The ref for Playwright's `pw_ref` in `document`: the same number as before (the same
        element's, when a modal hid or showed it), or a new one."""
        if document != self._document:
            # a number stays the same within one document only: earlier documents' are never asked again
            self._numbers = {key: n for key, n in self._numbers.items() if key[0] == document}
            self._promoted = {key: m for key, m in self._promoted.items() if key[0] == document}
            self._document = document
        key = (document, pw_ref)
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = self._hidden_or_shown(role, name, box, muted) or self._take("e")
        ref = Ref("e", number)
        old = self._targets.get(ref)
        given = (role, name, pw_ref, document, in_frame, states, box, muted, said, told)
        # A snapshot of an unchanged page gives every ref again as it was: the target it has stays
        # (a big page's thousands of new ones were most of giving them).
        if old is None or given != _given(old):
            self._targets[ref] = RefTarget(
                ref, role, name, pw_ref, document, None, in_frame, states, box, muted, said=said, told=told
            )
        self._live.add(ref)
        return ref

    def give_reached(
        self, document: str, reach_id: int, role: str, name: str, box: tuple[float, float, float, float]
    ) -> Ref:
        """The @c ref of an element outside the accessibility tree that the page's reach scan found
        (see `snapshot.reach`): the same number for as long as the scan keeps the element's id."""
        self._reached = {key: n for key, n in self._reached.items() if key[0] == document}
        number = self._reached.get((document, reach_id))
        if number is None:
            number = self._reached[(document, reach_id)] = self._take("c")
        ref = Ref("c", number)
        self._targets[ref] = RefTarget(ref, role, name, "", document, None, box=box, reached=reach_id)
        self._live.add(ref)
        return ref

    def give_found(self, document: str, pw_ref: str, role: str, name: str, in_frame: bool) -> Ref:
        """`give` for an element `find` located its words in: it stays referable (`found_in`)."""
        self._found = {key for key in self._found if key[0] == document}
        self._found.add((document, pw_ref))
        return self.give(document, pw_ref, role, name, in_frame)

    def found_in(self, document: str) -> frozenset[str]:
        """The Playwright refs `find` gave refs to in `document` (see `give_found`)."""
        return frozenset(pw_ref for doc, pw_ref in self._found if doc == document)

    def promote(self, document: str, pw_ref: str, marks: frozenset[str]) -> None:
        """`snapshot -C` found the element of `pw_ref` clickable: it stays referable in `document`."""
        self._promoted[(document, pw_ref)] = marks

    def promoted_in(self, document: str) -> dict[str, frozenset[str]]:
        """Playwright ref -> the marks `snapshot -C` gave its element in `document` (see `promote`)."""
        if document != self._document:
            return {}
        return {pw_ref: marks for (_, pw_ref), marks in self._promoted.items()}

    def _hidden_or_shown(
        self, role: str, name: str, box: tuple[float, float, float, float] | None, muted: bool
    ) -> int | None:
        """The number of the one element that left this snapshot from the same place, if this is it
        gone into or out of hiding (see the module's doc)."""
        left = self._left.get((role, box), [])
        if len(left) != 1 or left[0].muted == muted or (left[0].name and name and left[0].name != name):
            return None
        return self._left.pop((role, box))[0].ref.number

    def give_clickables(self, found: list[tuple[ElementHandle, str, str]]) -> list[Ref]:
        """Fresh @c refs for (handle, tag, text) triples; the previous ones retire."""
        for ref in [r for r in self._live if r.kind == "c" and not self._targets[r].reached]:
            self._live.discard(ref)
            self._targets[ref] = _without_handle(self._targets[ref])
        refs = []
        for handle, tag, text in found:
            ref = Ref("c", self._take("c"))
            self._targets[ref] = RefTarget(ref, tag, text, handle=handle)
            self._live.add(ref)
            refs.append(ref)
        self._forget_oldest()
        return refs

    def target(self, ref: Ref) -> RefTarget:
        """The live target of `ref`, or a StaleRef error that says what it was."""
        found = self._targets.get(ref)
        if found is None:
            raise StaleRef(
                f"{ref} is unknown in this tab: it is not in the latest snapshot",
                f"run `browse snapshot -i{' -C' if ref.kind == 'c' else ''}` {CURRENT_REFS}",
            )
        if ref not in self._live:
            raise stale(found, self._retired.get(ref, "changed, or is not in the latest snapshot"))
        return found

    def known(self, ref: Ref) -> RefTarget | None:
        """What `ref` was given to, live or not (None when never given, or long forgotten)."""
        return self._targets.get(ref)

    def alike(self, target: RefTarget) -> list[RefTarget]:
        """The @e targets of `target`'s document with its role and name, in the order they were given."""
        same = [
            t
            for t in self._targets.values()
            if t.ref.kind == "e"
            and (t.document, t.role, t.name) == (target.document, target.role, target.name)
        ]
        return sorted(same, key=lambda t: t.ref.number)

    def live(self) -> list[RefTarget]:
        return [self._targets[ref] for ref in sorted(self._live, key=lambda r: (r.kind, r.number))]

    def _take(self, kind: str) -> int:
        number = self._next[kind]
        self._next[kind] = number + 1
        return number

    def _forget_oldest(self) -> None:
        if len(self._targets) > _FORGET_AFTER:
            for ref in list(self._targets)[: len(self._targets) - _FORGET_AFTER]:
                if ref not in self._live:
                    del self._targets[ref]


def stale(target: RefTarget, why: str = "changed, or is not in the latest snapshot") -> StaleRef:
    return StaleRef(
        f"{target.ref} ({target.describe()}) {why}",
        f"run `browse snapshot -i` {CURRENT_REFS}",
    )


def _given(t: RefTarget) -> tuple[object, ...]:
    """What `RefMap.give` gives an @e ref, in the order of its arguments."""
    return (t.role, t.name, t.pw_ref, t.document, t.in_frame, t.states, t.box, t.muted, t.said, t.told)


def _without_handle(target: RefTarget) -> RefTarget:
    return RefTarget(target.ref, target.role, target.name)
