"""A passage of plain text where it stands: the block around an element, a find hit or the URL's fragment.

The block is what a reader would read there: a definition term with its
definitions (`dt` + `dd`), a section from its heading to the next heading of
the same or a higher level, else the nearest paragraph, list item, cell,
code block or quote. `browse read` prints it; an action that lands on a
fragment (`goto URL#id`, a click on an in-page anchor) prints it in its report.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from refbrowse.daemon.action.report import Outcome
from refbrowse.daemon.core.devtools.scripts import script

PASSAGE_TOKENS = 1_500  # `read` prints about this much unless told; a report prints less
REPORT_TOKENS = 400
_MIN_CHARS = 40  # a fragment's block shorter than this is no passage (an app's `#/route` target)

_BLOCK_JS = script("passage_block")

_BY_ID_JS = script("passage_by_id")


@dataclass(frozen=True, slots=True)
class Passage:
    kind: str  # definition, section, block
    text: str
    toggle: bool = False  # the fragment names a link to itself, or a heading holding one (see `withdraw`)

    def cut(self, max_tokens: int) -> tuple[str, int]:
        """The text within `max_tokens` (characters / 4), cut at a line if it can be; and how much is left."""
        limit = max_tokens * 4
        if len(self.text) <= limit:
            return self.text, 0
        at = self.text.rfind("\n", 0, limit)
        kept = self.text[: at if at > limit // 2 else limit].rstrip()
        return kept, len(self.text) - len(kept)


async def around(locator: Locator) -> Passage:
    """The passage that holds the element `locator` names (raises PlaywrightError if it went)."""
    kind, text = await locator.first.evaluate(_BLOCK_JS)
    return Passage(str(kind), str(text))


def fragment(url: str) -> str:
    """The URL's fragment, decoded; "" when none, or when it is an app's route (`#/settings`)."""
    frag = unquote(urlsplit(url).fragment)
    return "" if not frag or frag.startswith(("/", "!")) else frag


async def at_fragment(page: Page) -> Passage | None:
    """The passage at the URL's fragment, when the fragment names an element that holds some text."""
    frag = fragment(page.url)
    if not frag:
        return None
    try:
        found = await page.evaluate(_BY_ID_JS, frag)
    except PlaywrightError:
        return None
    if not found or len(str(found[1])) < _MIN_CHARS:
        return None
    return Passage(str(found[0]), str(found[1]), bool(found[2]))


async def by_id(page: Page, element_id: str) -> Passage | None:
    try:
        found = await page.evaluate(_BY_ID_JS, element_id)
    except PlaywrightError:
        return None
    return Passage(str(found[0]), str(found[1])) if found else None


def report_tokens(found: Passage | None) -> int:
    """About how many tokens of a report the passage takes (`into_report`)."""
    return 0 if found is None else min(len(found.text) // 4, REPORT_TOKENS)


def into_report(out: Outcome, url: str, found: Passage | None) -> None:
    """`goto URL#id`, a click on an in-page anchor: the passage there (`at_fragment`) is what the agent
    came to read."""
    if found is None:
        return
    text, left_out = found.cut(REPORT_TOKENS)
    out.quoted += [f"passage at #{fragment(url)}:", text]
    more = f"… {left_out} more characters: `browse read` prints the whole {found.kind}"
    out.trailer += [more] if left_out else []
    out.fields["passage"] = {"kind": found.kind, "text": text}


def withdraw_if_unfolded(out: Outcome, read: Passage | None, came: bool) -> None:
    """Take the passage out of the report when the click on a section's own link (Trac's foldable
    "Modify Ticket") unfolded it (elements `came`): the diff says its controls with their refs, and
    the passage said the same form a second time, every select's options as words."""
    if read is None or not read.toggle or not came:
        return
    at = next((i for i, line in enumerate(out.quoted) if line.startswith("passage at #")), None)
    if at is None:
        return
    del out.quoted[at : at + 2]
    out.trailer = [line for line in out.trailer if "more characters: `browse read` prints" not in line]
    out.fields.pop("passage", None)
