"""Which URLs a `route` glob names: Playwright's glob, read against the URL's path and not its query.

Playwright matches a glob against the whole URL, and its `**` crosses the
`?`: `**/api/items` also matches `/search?next=/api/items`, a page that only
mentions the address in its query. A rule's glob must also match the URL
without its query and fragment, unless the glob itself holds a `?` (it names
a query).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

# The characters Playwright escapes in a glob's literal parts (globToRegexPattern in its driver).
_ESCAPED = set("$^+.*()|\\?{}[]")


def _star(glob: str, i: int) -> tuple[str, int]:
    """The expression for the run of stars at `i`, and where the glob goes on after it."""
    before, stars = glob[i - 1] if i else "", 1
    while glob[i + stars : i + stars + 1] == "*":
        stars += 1
    after = i + stars
    if stars == 1:
        return "([^/]*)", after
    if glob[after : after + 1] == "/":
        return ("((.+/)|)" if before == "/" else "(.*/)"), after + 1
    return "(.*)", after


def _literal(char: str, in_group: bool) -> str:
    if char == "{":
        return "("
    if char == "}":
        return ")"
    if char == ",":
        return "|" if in_group else "\\,"
    return "\\" + char if char in _ESCAPED else char


@lru_cache(maxsize=256)
def glob_regex(glob: str) -> re.Pattern[str]:
    """Playwright's reading of `glob` as an anchored regular expression."""
    tokens, in_group, i = ["^"], False, 0
    while i < len(glob):
        char = glob[i]
        if char == "\\" and i + 1 < len(glob):
            tokens.append("\\" + glob[i + 1] if glob[i + 1] in _ESCAPED else glob[i + 1])
            i += 2
        elif char == "*":
            token, i = _star(glob, i)
            tokens.append(token)
        else:
            in_group = (in_group or char == "{") and char != "}"
            tokens.append(_literal(char, in_group))
            i += 1
    return re.compile("".join(tokens) + "$")


def without_query(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def glob_names(glob: str, url: str) -> bool:
    """Whether a request Playwright matched by `glob` is one the glob names by its path."""
    if "?" in glob.replace("\\?", ""):
        return True
    try:
        return bool(glob_regex(glob).match(without_query(url)))
    except re.error:  # a glob Playwright took but we cannot read: as Playwright matched it
        return True
