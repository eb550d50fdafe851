"""Page text has a default size: `text`, `html` and `links` stop at `DEFAULT_MAX_CHARS`.

A huge page printed whole (measured: 0.7-2.6 MB for a 100,000-node page)
costs an agent its context for nothing. The output is cut at a line break
before the limit, and a note after the fence says how much was left out and
how to get it: `--max-chars N` for more, `--max-chars 0` for everything, or
a selector for a part.
"""

from __future__ import annotations

DEFAULT_MAX_CHARS = 100_000  # about 25,000 tokens
MAX_CHARS_FLAG = "--max-chars"


def limit_from(flags: dict[str, object]) -> int:
    """The caller's `--max-chars` (0: no limit), else the default."""
    given = flags.get(MAX_CHARS_FLAG)
    return given if isinstance(given, int) and not isinstance(given, bool) else DEFAULT_MAX_CHARS


def cap(text: str, limit: int) -> tuple[str, int]:
    """`text` cut to at most `limit` characters at a line break when there is one; and how many were cut."""
    if limit <= 0 or len(text) <= limit:
        return text, 0
    cut = text.rfind("\n", 0, limit)
    if cut < limit // 2:
        cut = limit
    return text[:cut], len(text) - cut


def left_out_note(command: str, left_out: int, total: int, limit: int) -> str:
    part = ", or give a selector for a part" if command in ("text", "html") else ""
    return (
        f"\n… {left_out:,} of {total:,} characters left out (the first {limit:,} are shown): "
        f"`browse {command} {MAX_CHARS_FLAG} 0` prints everything{part}"
    )


def capped(command: str, text: str, flags: dict[str, object]) -> tuple[str, str]:
    """(the text to show, the note to print after it, empty when nothing was cut)."""
    limit = limit_from(flags)
    shown, left_out = cap(text, limit)
    return shown, left_out_note(command, left_out, len(text), limit) if left_out else ""
